import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Collection, Customer } from '../../domain/catalog/collection.js';
import { getOrCreate } from '../../domain/maps.js';
import { json, time } from '../codec.js';
import type { Database } from '../schema.js';

/**
 * SQLite: a read of a shop's load as statements prepared once, their rows as arrays. Through
 * Kysely every load built the query again and better-sqlite3 made an object of each row, which
 * Kysely's driver then copied: that was the largest part of a small shop's load. The statements of
 * one read run together, so they see the same writes.
 */
export function rawReads<A extends unknown[], T>(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  texts: readonly string[],
  read: (statements: readonly SQLite.Statement<unknown[], unknown[]>[], ...args: A) => T,
): (...args: A) => Promise<T> {
  return preparedReads(db, sqlite, texts, true, read);
}

/**
 * Statements prepared once, rows as arrays (`raw`) or objects. SQLite has one connection: while a
 * transaction of Kysely's is open on it (an upsert between its statements), a read waits for
 * Kysely's connection, or it would see uncommitted rows. Otherwise it reads at once: statements run
 * synchronously, so no other statement is halfway, and taking Kysely's connection (its lock, its
 * promises) was a tenth of what a load allocated and more CPU than most of its reads.
 */
function preparedReads<A extends unknown[], T, R>(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  texts: readonly string[],
  raw: boolean,
  read: (statements: readonly SQLite.Statement<unknown[], R>[], ...args: A) => T,
): (...args: A) => Promise<T> {
  // Kysely quotes its identifiers, so its statement cache never hands a raw-mode statement to Kysely.
  let statements: SQLite.Statement<unknown[], R>[] | undefined;
  const run = (args: A) => {
    statements ??= texts.map((text) => (sqlite.prepare(text) as SQLite.Statement<unknown[], R>).raw(raw));
    return read(statements, ...args);
  };
  return async (...args) => {
    if (!sqlite.inTransaction) return run(args);
    return db.connection().execute(async () => run(args));
  };
}

/** One statement's rows as arrays, read as `rawReads` reads them. */
export function rawReader<P extends unknown[], R extends unknown[]>(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  text: string,
): (...params: P) => Promise<R[]> {
  return rawReads(db, sqlite, [text], ([statement], ...params: P) => statement!.all(...params) as R[]);
}

/**
 * One statement's rows as objects named by their columns, as Kysely's SQLite driver gives them
 * (better-sqlite3's own), so the same mapping reads both: for the small reads of every load (the
 * shop's row, its rulesets, experiments and kept event totals), whose building and compiling
 * through Kysely cost more than the reads. On the connection `rawReads` takes, for the same reason.
 */
export function rowReader<P extends unknown[], R>(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  text: string,
): (...params: P) => Promise<R[]> {
  return preparedReads<P, R[], R>(db, sqlite, [text], false, ([statement], ...params) => statement!.all(...params));
}

/** Reads a shop's collections in id order, each with its members by position, then product id. */
export type CollectionsReader = (shopId: number) => Promise<Collection[]>;

export function collectionsReader(db: Kysely<Database>, sqlite?: SQLite.Database): CollectionsReader {
  return sqlite ? sqliteCollections(db, sqlite) : kyselyCollections(db);
}

type CollectionRow = [id: number, title: string, handle: string, updatedAt: number];
type MemberRow = [collectionId: number, productId: number, position: number];

const COLLECTIONS = 'select id, title, handle, updated_at from collections where shop_id = ? order by id';
const MEMBERS = `select collection_id, product_id, position from collection_products
  where shop_id = ? order by collection_id, position, product_id`;

/**
 * SQLite: both statements' rows as arrays (`rawReads`), the collections and their members made here.
 * The two run in one read transaction: another process's commit cannot fall between them.
 */
function sqliteCollections(db: Kysely<Database>, sqlite: SQLite.Database): CollectionsReader {
  const both = sqlite.transaction(
    (
      collections: SQLite.Statement<unknown[], unknown[]>,
      members: SQLite.Statement<unknown[], unknown[]>,
      shopId: number,
    ) => assemble(collections.all(shopId) as CollectionRow[], members.all(shopId) as MemberRow[]),
  );
  return rawReads(db, sqlite, [COLLECTIONS, MEMBERS], ([collections, members], shopId: number) =>
    both(collections!, members!, shopId),
  );
}

/** PostgreSQL (and SQLite opened without its handle): the queries through Kysely. */
function kyselyCollections(db: Kysely<Database>): CollectionsReader {
  return async (shopId) => {
    const [rows, members] = await Promise.all([
      db.selectFrom('collections').selectAll().where('shop_id', '=', shopId).orderBy('id').execute(),
      db
        .selectFrom('collection_products')
        .select(['collection_id', 'product_id', 'position'])
        .where('shop_id', '=', shopId)
        .orderBy('collection_id')
        .orderBy('position')
        .orderBy('product_id')
        .execute(),
    ]);
    return assemble(
      rows.map((r): CollectionRow => [Number(r.id), r.title, r.handle, Number(r.updated_at)]),
      members.map((m): MemberRow => [Number(m.collection_id), Number(m.product_id), Number(m.position)]),
    );
  };
}

/** Collections with their members (rows in collection order); members of no collection are left out. */
function assemble(rows: readonly CollectionRow[], members: readonly MemberRow[]): Collection[] {
  const byCollection = new Map<number, Collection['products']>();
  for (let i = 0; i < members.length; i++) {
    const member = members[i]!;
    getOrCreate(byCollection, member[0], () => []).push({ product_id: member[1], position: member[2] });
  }
  return rows.map(([id, title, handle, updatedAt]) => ({
    id,
    title,
    handle,
    updated_at: time.fromDb(updatedAt),
    products: byCollection.get(id) ?? [],
  }));
}

/** Reads a shop's customers in id order (every shop's load reads them); a page of them, after an id. */
export type CustomersReader = (shopId: number, page?: { afterId: number; limit: number }) => Promise<Customer[]>;

export function customersReader(db: Kysely<Database>, sqlite?: SQLite.Database): CustomersReader {
  return sqlite ? sqliteCustomers(db, sqlite) : kyselyCustomers(db);
}

const CUSTOMERS = 'select id, email, tags from customers where shop_id = ? order by id';
const CUSTOMERS_PAGE = 'select id, email, tags from customers where shop_id = ? and id > ? order by id limit ?';

type CustomerRow = [id: number, email: string | null, tags: string];

/**
 * Tags of one read's customers: a shop's customers share a few lists of tags (none, or a newsletter's),
 * each parsed once and its strings shared; every customer still gets an array of its own.
 */
function tagLists(): (stored: string) => string[] {
  const parsed = new Map<string, string[]>();
  return (stored) => {
    if (stored === '[]') return [];
    return getOrCreate(parsed, stored, () => json.fromDb<string[]>(stored)).slice();
  };
}

/** SQLite: the rows as arrays (`rawReader`), about half of the Kysely query's time for 300 customers. */
function sqliteCustomers(db: Kysely<Database>, sqlite: SQLite.Database): CustomersReader {
  const read = rawReader<[number], CustomerRow>(db, sqlite, CUSTOMERS);
  const readPage = rawReader<[number, number, number], CustomerRow>(db, sqlite, CUSTOMERS_PAGE);
  return async (shopId, page) => {
    const rows = await (page ? readPage(shopId, page.afterId, page.limit) : read(shopId));
    const tagsOf = tagLists();
    const customers = new Array<Customer>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      customers[i] = { id: row[0], email: row[1], tags: tagsOf(row[2]) };
    }
    return customers;
  };
}

/** PostgreSQL (and SQLite opened without its handle): the query through Kysely. */
function kyselyCustomers(db: Kysely<Database>): CustomersReader {
  return async (shopId, page) => {
    let query = db.selectFrom('customers').select(['id', 'email', 'tags']).where('shop_id', '=', shopId).orderBy('id');
    if (page) query = query.where('id', '>', page.afterId).limit(page.limit);
    const rows = await query.execute();
    const tagsOf = tagLists();
    return rows.map((r) => ({ id: Number(r.id), email: r.email, tags: tagsOf(r.tags) }));
  };
}
