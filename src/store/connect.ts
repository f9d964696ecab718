import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';

const require = createRequire(import.meta.url);

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is opened: about 3 MB of a process's heap
 * (with the fetch classes of Node's own that it looks up as it loads), which a SQLite node never uses.
 */
export function loadPg(): typeof pg {
  return require('pg') as typeof pg;
}

export interface Connection {
  db: Kysely<Database>;
  poolStats: () => { total: number; idle: number; waiting: number };
  dialect: 'sqlite' | 'postgres';
  /** The PostgreSQL schema named in the URL (`?schema=`), when not the default one. */
  schema?: string;
  /**
   * SQLite: the database under Kysely's one connection, for the few hot reads that run prepared
   * statements of their own (taking that connection first: see `commerce.ts`).
   */
  sqlite?: SQLite.Database;
}

/** Opens the database a `DATABASE_URL` names: `sqlite:<file>` or `postgres://…` (optionally `?schema=name`). */
export function connect(databaseUrl: string): Connection {
  if (databaseUrl.startsWith('sqlite:')) {
    const sqlite = openSqlite(databaseUrl.slice(7));
    return {
      db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
      dialect: 'sqlite',
      sqlite,
      poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    };
  }
  const schema = new URL(databaseUrl).searchParams.get('schema');
  const pool = postgresPool(databaseUrl);
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
    ...(schema ? { schema } : {}),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

function openSqlite(file: string): SQLite.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  if (file !== ':memory:') startCheckpoints(database, file);
  cacheStatements(database);
  return database;
}

/**
 * Moves WAL checkpoints off this thread. By default SQLite checkpoints inside the commit that
 * fills the WAL past 1,000 pages: that commit copies the pages into the database file and syncs
 * it while the event loop waits (writing event batches alone, checkpoints took a third of the
 * time and set the slowest commits at 30-100 ms). A worker thread checkpoints every 100 ms
 * instead; this connection still checkpoints itself past 10,000 pages, should the worker fall behind.
 */
function startCheckpoints(database: SQLite.Database, file: string): void {
  database.pragma('wal_autocheckpoint = 10000');
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { driver: require.resolve('better-sqlite3'), file, intervalMs: 100 },
  });
  worker.unref();
  // A worker that cannot run leaves the checkpoints to this connection, as SQLite does by default.
  worker.on('error', () => {
    if (database.open) database.pragma('wal_autocheckpoint = 1000');
  });
  const close = database.close.bind(database);
  database.close = () => {
    void worker.terminate();
    return close();
  };
}

/**
 * The checkpointing thread (plain JavaScript: it runs the same from the sources and the build).
 * PASSIVE copies what it can without waiting for, or blocking, the writer and the readers; a
 * checkpoint that meets a busy lock is tried again on the next tick.
 */
const CHECKPOINTER = `
const { workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file);
database.pragma('busy_timeout = 0');
setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.intervalMs);
`;

/**
 * Keeps prepared statements by their SQL: Kysely prepares every query it runs, and compiling the
 * same INSERT again for every batch of the event intake was a large share of its cost. A
 * statement still iterating (busy) is never handed out twice.
 */
function cacheStatements(database: SQLite.Database): void {
  const prepare = database.prepare.bind(database);
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  database.prepare = ((source: string) => {
    const cached = statements.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    statements.set(source, statement);
    return statement;
  }) as typeof database.prepare;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function postgresPool(databaseUrl: string): pg.Pool {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const { Pool, types } = loadPg();
  const pool = new Pool({
    connectionString: url.toString(),
    max: 10,
    // An unreachable database fails a request in seconds (503), it does not hang it.
    connectionTimeoutMillis: 3000,
    // Unqualified table names resolve in the chosen schema (tests run each suite in its own).
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Our bigint columns hold ids and epoch milliseconds, all below 2^53: read them as numbers.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (v: string) => Number(v)
          : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser,
    },
  });
  // An idle connection dropped by the server (restart, outage) is removed by the pool; without a
  // listener the 'error' event would end the process. Queries in flight fail on their own.
  pool.on('error', () => undefined);
  return pool;
}
