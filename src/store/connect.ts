import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import { Checkpoints, type CheckpointOptions } from './checkpoints.js';
import type { Database } from './schema.js';

const require = createRequire(import.meta.url);

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is opened: about 3 MB of a process's heap
 * (with the fetch classes of Node's own that it looks up as it loads), which a SQLite node never uses.
 */
export function loadPg(): typeof pg {
  return require('pg') as typeof pg;
}

/**
 * One PostgreSQL session outside the pool, for work that must not share it (the start-up lock, a
 * look at what a database holds), and the schema the URL names (`?schema=`, else the session's current one).
 */
export async function pgSession(databaseUrl: string): Promise<{ client: pg.Client; schema: string }> {
  const url = new URL(databaseUrl);
  const named = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const client = new (loadPg().Client)({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  if (named) return { client, schema: named };
  // Unnamed, tables go where PostgreSQL creates them: the first schema of the search path that exists.
  const { rows } = await client.query<{ schema: string | null }>('select current_schema() as schema');
  return { client, schema: rows[0]?.schema ?? 'public' };
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
  /** SQLite on a file: the thread that checkpoints the WAL while this connection writes. */
  checkpoints?: Checkpoints;
}

/** Opens the database a `DATABASE_URL` names: `sqlite:<file>` or `postgres://…` (optionally `?schema=name`). */
export function connect(databaseUrl: string, options: { checkpoints?: CheckpointOptions } = {}): Connection {
  if (databaseUrl.startsWith('sqlite:')) {
    const { database: sqlite, checkpoints } = openSqlite(databaseUrl.slice(7), options.checkpoints ?? {});
    return {
      db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
      dialect: 'sqlite',
      sqlite,
      ...(checkpoints ? { checkpoints } : {}),
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

function openSqlite(
  file: string,
  options: CheckpointOptions,
): { database: SQLite.Database; checkpoints?: Checkpoints } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // What is deleted is overwritten, not left readable in free space: an erased customer's rows are gone
  // from the file (older copies in the WAL go when the checkpoint thread truncates it after an erasure).
  database.pragma('secure_delete = ON');
  unicodeLower(database);
  if (file === ':memory:') {
    cacheStatements(database);
    return { database };
  }
  const checkpoints = new Checkpoints(database, file, options);
  cacheStatements(database, () => checkpoints.written());
  const close = database.close.bind(database);
  database.close = () => {
    checkpoints.close();
    return close();
  };
  return { database, checkpoints };
}

/**
 * SQLite's own lower() folds ASCII letters only, PostgreSQL's every letter: an e-mail on file as
 * `ZOË@…` did not match the `zoë@…` an event or a privacy request gave, on SQLite alone, so its
 * erasure left those events. The same name, defined by the application, takes the built-in's place.
 */
export function unicodeLower(database: SQLite.Database): void {
  database.function('lower', { deterministic: true }, (value: unknown) =>
    value === null ? null : String(value).toLowerCase(),
  );
}

/**
 * Keeps prepared statements by their SQL: Kysely prepares every query it runs, and compiling the
 * same INSERT again for every batch of the event intake was a large share of its cost. A
 * statement still iterating (busy) is never handed out twice. The statements that may write
 * report each run that changed rows (`written`): one that changes nothing (a daily purge that
 * finds nothing, `begin immediate` before migrations already applied) adds nothing to the WAL.
 */
function cacheStatements(database: SQLite.Database, written?: () => void): void {
  const prepare = database.prepare.bind(database);
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  database.prepare = ((source: string) => {
    const cached = statements.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    if (written && !statement.readonly) reportWrites(statement, written);
    statements.set(source, statement);
    return statement;
  }) as typeof database.prepare;
}

/** Wraps the two methods Kysely runs a statement with (`all` for the ones with RETURNING). */
function reportWrites(statement: SQLite.Statement, written: () => void): void {
  const { run, all } = statement;
  statement.run = function (this: SQLite.Statement, ...params: unknown[]) {
    const result = run.apply(this, params);
    if (result.changes > 0) written();
    return result;
  } as typeof run;
  statement.all = function (this: SQLite.Statement, ...params: unknown[]) {
    const rows = all.apply(this, params);
    if (rows.length > 0) written();
    return rows;
  } as typeof all;
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
  // So does a connection dropped while checked out between two statements (a transaction's): the
  // pool gives no listener to those. Its next statement fails, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
