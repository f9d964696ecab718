import type { Kysely } from 'kysely';
import { chunks, json } from '../codec.js';
import { nextTurn } from '../../indexes/turns.js';
import type {
  PlatformStatus,
  PlatformSync,
  PlatformWebhook,
  SyncMode,
  SyncPhase,
} from '../../domain/platform/types.js';
import type { Database } from '../schema.js';

/** The shop's connection to its commerce platform, and the staging of bulk export lines. */
export interface PlatformStore {
  getPlatformConnection(shopId: number): Promise<PlatformConnectionRecord | null>;
  listPlatformConnections(): Promise<PlatformConnectionRecord[]>;
  putPlatformConnection(record: Omit<PlatformConnectionRecord, 'updated_at'>): Promise<void>;
  /**
   * Changes the given fields; with `ifSync`, only while that sync (in that mode and phase, when
   * given) is the current one: a claim, or progress that must not overwrite a successor.
   */
  updatePlatformConnection(
    shopId: number,
    patch: PlatformConnectionPatch,
    ifSync?: { id: number; mode?: SyncMode; phase?: SyncPhase },
  ): Promise<boolean>;
  deletePlatformConnection(shopId: number): Promise<void>;

  stageLines(shopId: number, lines: StagedLine[]): Promise<void>;
  /** Lines without a parent, in file order, after `afterSeq`. */
  stagedRoots(shopId: number, afterSeq: number, limit: number): Promise<StagedLine[]>;
  /** Lines whose parent is one of these GIDs, in file order. */
  stagedChildren(shopId: number, parents: string[]): Promise<StagedLine[]>;
  /** How many lines each of these GIDs holds below it: its children and theirs (absent: none). */
  stagedLineCounts(shopId: number, parents: string[]): Promise<Map<string, number>>;
  clearStaging(shopId: number): Promise<void>;
}

/** A shop's platform connection as stored: the access token sealed with REBOUND_SECRET_KEY. */
export interface PlatformConnectionRecord {
  shop_id: number;
  shop_domain: string;
  api_version: string;
  api_url: string;
  access_token: string | null;
  status: PlatformStatus;
  sync: PlatformSync | null;
  /** Consecutive refusals of the token; three mark the connection failing. */
  refusals: number;
  last_reconciled_at: number | null;
  webhooks: PlatformWebhook[];
  updated_at: number;
}

export type PlatformConnectionPatch = Partial<Omit<PlatformConnectionRecord, 'shop_id' | 'updated_at'>>;

/** A line of a bulk export, kept until its parent's children have all arrived. */
export interface StagedLine {
  seq: number;
  gid: string;
  parent: string | null;
  line: string;
}

/** Table shapes of the platform connection (migration 2026_11_25_0300_platform). */
export interface PlatformTables {
  platform_connections: {
    shop_id: number;
    shop_domain: string;
    api_version: string;
    api_url: string;
    access_token: string | null;
    status: string;
    sync: string | null; // JSON of PlatformSync
    refusals: number;
    last_reconciled_at: number | null;
    webhooks: string; // JSON array of {topic, id}
    updated_at: number;
  };
  platform_staging: { shop_id: number; seq: number; gid: string; parent: string | null; line: string };
}

type ConnectionRow = PlatformTables['platform_connections'];

/** Staged lines deleted a statement when staging is cleared. */
const CLEAR_SLICE = 5000;

const toRecord = (row: ConnectionRow): PlatformConnectionRecord => ({
  shop_id: Number(row.shop_id),
  shop_domain: row.shop_domain,
  api_version: row.api_version,
  api_url: row.api_url,
  access_token: row.access_token,
  status: row.status as PlatformStatus,
  sync: row.sync === null ? null : json.fromDb<PlatformSync>(row.sync),
  refusals: Number(row.refusals),
  last_reconciled_at: row.last_reconciled_at === null ? null : Number(row.last_reconciled_at),
  webhooks: json.fromDb<PlatformWebhook[]>(row.webhooks),
  updated_at: Number(row.updated_at),
});

/** The platform connection rows and the staging of bulk export lines. */
export function platformMethods(db: Kysely<Database>): PlatformStore {
  return {
    async getPlatformConnection(shopId) {
      const row = await db
        .selectFrom('platform_connections')
        .selectAll()
        .where('shop_id', '=', shopId)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },
    async listPlatformConnections() {
      const rows = await db.selectFrom('platform_connections').selectAll().orderBy('shop_id').execute();
      return rows.map(toRecord);
    },
    async putPlatformConnection(record) {
      const values = {
        ...record,
        sync: record.sync === null ? null : json.toDb(record.sync),
        webhooks: json.toDb(record.webhooks),
        updated_at: Date.now(),
      };
      const { shop_id: _, ...update } = values;
      await db
        .insertInto('platform_connections')
        .values(values)
        .onConflict((oc) => oc.column('shop_id').doUpdateSet(update))
        .execute();
    },
    async updatePlatformConnection(shopId, patch, ifSync) {
      const { sync, webhooks, ...rest } = patch;
      const set = {
        ...rest,
        ...(sync !== undefined ? { sync: sync === null ? null : json.toDb(sync) } : {}),
        ...(webhooks !== undefined ? { webhooks: json.toDb(webhooks) } : {}),
        updated_at: Date.now(),
      };
      let query = db.updateTable('platform_connections').set(set).where('shop_id', '=', shopId);
      // The sync is JSON written id, mode, phase first: a prefix names it (and its phase, for a claim).
      if (ifSync !== undefined) {
        const phase = ifSync.mode && ifSync.phase ? `"phase":"${ifSync.phase}",` : '';
        const prefix = `{"id":${ifSync.id},${ifSync.mode ? `"mode":"${ifSync.mode}",${phase}` : ''}`;
        query = query.where('sync', 'like', `${prefix}%`);
      }
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deletePlatformConnection(shopId) {
      await db.deleteFrom('platform_connections').where('shop_id', '=', shopId).execute();
    },

    async stageLines(shopId, lines) {
      for (const part of chunks(lines, 5)) {
        await db
          .insertInto('platform_staging')
          .values(part.map((l) => ({ shop_id: shopId, ...l })))
          .execute();
      }
    },
    async stagedRoots(shopId, afterSeq, limit) {
      const rows = await db
        .selectFrom('platform_staging')
        .select(['seq', 'gid', 'parent', 'line'])
        .where('shop_id', '=', shopId)
        .where('parent', 'is', null)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    },
    async stagedChildren(shopId, parents) {
      if (parents.length === 0) return [];
      const out = [];
      for (const part of chunks(parents, 1, 5000)) {
        const rows = await db
          .selectFrom('platform_staging')
          .select(['seq', 'gid', 'parent', 'line'])
          .where('shop_id', '=', shopId)
          .where('parent', 'in', part)
          // Sorted below, not here: an ORDER BY makes SQLite walk the whole staging table in seq order.
          .execute();
        // One push at a time: spread into push, 125,000 rows passed the engine's bound on arguments.
        for (const r of rows) out.push({ ...r, seq: Number(r.seq) });
      }
      return out.sort((a, b) => a.seq - b.seq);
    },
    async stagedLineCounts(shopId, parents) {
      const counts = new Map<string, number>();
      const add = (parent: string | null, n: unknown) => {
        if (parent !== null) counts.set(parent, (counts.get(parent) ?? 0) + Number(n));
      };
      for (const part of chunks(parents, 1, 5000)) {
        const children = await db
          .selectFrom('platform_staging')
          .select(['parent', (eb) => eb.fn.countAll().as('n')])
          .where('shop_id', '=', shopId)
          .where('parent', 'in', part)
          .groupBy('parent')
          .execute();
        for (const row of children) add(row.parent, row.n);
        const grandchildren = await db
          .selectFrom('platform_staging as c')
          .innerJoin('platform_staging as g', (join) =>
            join.onRef('g.shop_id', '=', 'c.shop_id').onRef('g.parent', '=', 'c.gid'),
          )
          .select(['c.parent', (eb) => eb.fn.countAll().as('n')])
          .where('c.shop_id', '=', shopId)
          .where('c.parent', 'in', part)
          .where('c.gid', '!=', '')
          .groupBy('c.parent')
          .execute();
        for (const row of grandchildren) add(row.parent, row.n);
      }
      return counts;
    },
    async clearStaging(shopId) {
      // In slices, a turn between them: one DELETE of 400,000 staged lines held the thread 3.5 s on SQLite.
      for (;;) {
        const slice = await db
          .selectFrom('platform_staging')
          .select('seq')
          .where('shop_id', '=', shopId)
          .orderBy('seq')
          .limit(CLEAR_SLICE)
          .execute();
        if (slice.length === 0) return;
        await db
          .deleteFrom('platform_staging')
          .where('shop_id', '=', shopId)
          .where('seq', '<=', slice[slice.length - 1]!.seq)
          .execute();
        if (slice.length < CLEAR_SLICE) return;
        await nextTurn();
      }
    },
  };
}
