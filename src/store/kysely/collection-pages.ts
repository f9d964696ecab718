import { type Kysely, sql } from 'kysely';
import type { Collection } from '../../domain/catalog/collection.js';
import { getOrCreate } from '../../domain/maps.js';
import { time } from '../codec.js';
import type { Database } from '../schema.js';

/** Which collections a page reads: those named, or those after an id; at most `limit`, and `members` in all. */
export interface CollectionPageQuery {
  ids?: readonly number[];
  afterId?: number;
  limit: number;
  /** A page ends before the collection that would take its members past this (it always holds one collection). */
  members?: number;
}

export interface CollectionPage {
  collections: Collection[];
  /** Whether collections after the page's last remain. */
  more: boolean;
}

export interface CollectionPageStore {
  /** A page of a shop's collections with their members, in id order. */
  collectionPage(shopId: number, query: CollectionPageQuery): Promise<CollectionPage>;
  countCollections(shopId: number): Promise<number>;
}

/**
 * Pages of collections, for the admin listing and for reading one collection: a shop's collections
 * hold up to 100,000 members each, so a listing of all of them was one answer of any size.
 */
export function collectionPageMethods(db: Kysely<Database>): CollectionPageStore {
  return {
    async collectionPage(shopId, query) {
      if (query.ids?.length === 0) return { collections: [], more: false };
      let heads = db
        .selectFrom('collections as c')
        .select([
          'c.id',
          'c.title',
          'c.handle',
          'c.updated_at',
          (eb) =>
            eb
              .selectFrom('collection_products as m')
              .select(sql<number>`count(*)`.as('n'))
              .whereRef('m.shop_id', '=', 'c.shop_id')
              .whereRef('m.collection_id', '=', 'c.id')
              .as('members'),
        ])
        .where('c.shop_id', '=', shopId);
      if (query.ids) heads = heads.where('c.id', 'in', [...query.ids]);
      if (query.afterId !== undefined) heads = heads.where('c.id', '>', query.afterId);
      const rows = await heads
        .orderBy('c.id')
        .limit(query.limit + 1)
        .execute();
      const kept = withinMembers(rows.slice(0, query.limit), query.members ?? Number.POSITIVE_INFINITY);
      const members =
        kept.length === 0
          ? []
          : await membersOf(
              db,
              shopId,
              kept.map((row) => Number(row.id)),
            );
      const byCollection = new Map<number, Collection['products']>();
      for (const member of members)
        getOrCreate(byCollection, Number(member.collection_id), () => []).push({
          product_id: Number(member.product_id),
          position: Number(member.position),
        });
      return {
        collections: kept.map((row) => ({
          id: Number(row.id),
          title: row.title,
          handle: row.handle,
          updated_at: time.fromDb(Number(row.updated_at)),
          products: byCollection.get(Number(row.id)) ?? [],
        })),
        more: kept.length < rows.length,
      };
    },

    async countCollections(shopId) {
      const row = await db
        .selectFrom('collections')
        .select(sql<number>`count(*)`.as('n'))
        .where('shop_id', '=', shopId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

/** The first rows whose members stay within the bound, the first row always. */
function withinMembers<R extends { members: number | string | null }>(rows: readonly R[], bound: number): R[] {
  let total = 0;
  const kept: R[] = [];
  for (const row of rows) {
    total += Number(row.members ?? 0);
    if (kept.length > 0 && total > bound) break;
    kept.push(row);
  }
  return kept;
}

function membersOf(db: Kysely<Database>, shopId: number, collectionIds: number[]) {
  return db
    .selectFrom('collection_products')
    .select(['collection_id', 'product_id', 'position'])
    .where('shop_id', '=', shopId)
    .where('collection_id', 'in', collectionIds)
    .orderBy('collection_id')
    .orderBy('position')
    .orderBy('product_id')
    .execute();
}
