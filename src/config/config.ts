import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './errors.js';
import { serverTimeouts, trustProxySetting, type ServerTimeouts, type TrustProxy } from './server.js';

/** Every setting of the service, validated once at boot and frozen. Nothing reads process.env after this. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** `sqlite:<file>` or `postgres://…`. */
  readonly databaseUrl: string;
  readonly redisUrl: string | null;
  /** Prefix of every Redis key and channel, so several deployments can share one Redis. */
  readonly redisPrefix: string;
  /** Operator token for the admin API; null means "generate once and keep it in the database". */
  readonly adminToken: string | null;
  /** Base URL customers reach this service on (links, image placeholders). */
  readonly publicUrl: string;
  /** Seed the demo shop into an empty database on `serve`. */
  readonly demo: boolean;
  readonly logLevel: LogLevel;
  readonly cacheTtlSeconds: number;
  /** How often a node polls the shops' data-version stamps to notice writes made by other nodes. */
  readonly indexRefreshMs: number;
  /** Least time between two model builds of a shop, in seconds (0: rebuild as soon as data changes). */
  readonly modelIntervalS: number;
  /** Seconds after the last write of a burst before a shop's model is rebuilt (§19). */
  readonly modelDebounceS: number;
  /** 32 bytes that encrypt billing provider API tokens at rest; null when not configured. */
  readonly secretKey: Buffer | null;
  /** Timeout of one call to a remote billing provider (docs/billing.md). */
  readonly billingTimeoutMs: number;
  /**
   * Upstreams (billing provider, storefront platform) may be
   * plain http and private addresses: development and tests only.
   */
  readonly allowPrivateUpstreams: boolean;
  /** Largest admin bulk body, in MB: larger is a 413 before parsing. */
  readonly maxBodyMb: number;
  /** Which proxies may name the client (rate limits, logs); off by default. */
  readonly trustProxy: TrustProxy;
  /** Connections one client address may hold open in a process (not proxies'); 0 is no bound. */
  readonly connectionsPerClient: number;
  readonly timeouts: ServerTimeouts;
  /**
   * Memory this process may use, in MB: shops' read models are evicted, those used least lately first,
   * to stay under it.
   */
  readonly memoryBudgetMb: number;
  /** How often a running bulk export of the storefront platform is asked for its status (docs/operations.md). */
  readonly platformPollMs: number;
  /** Largest export file of the platform a shop's sync stages, in MB. */
  readonly platformExportMaxMb: number;
  /** How long a graceful stop (SIGTERM) may take before the process exits anyway, in milliseconds. */
  readonly shutdownGraceMs: number;
  /** Processes serving this node's port (REBOUND_WORKERS; default the number of cores, 1 = one process). */
  readonly workers: number;
  /**
   * REBOUND_KEY_ROUTING: with several workers, each connection goes to the worker its first
   * request's key hashes to.
   */
  readonly keyRouting: boolean;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export { ConfigError };

type Env = Record<string, string | undefined>;

/** Reads and validates the configuration from an environment map (process.env at the entry point). */
export function loadConfig(env: Env, cwd = process.cwd()): Config {
  const port = integerSetting(env, 'PORT', 3000, 0, 65535);
  const host = nonEmpty(env, 'HOST') ?? '0.0.0.0';
  const databaseUrl = normalizeDatabaseUrl(nonEmpty(env, 'DATABASE_URL') ?? 'sqlite:data/rebound.db', cwd);
  const redisUrl = nonEmpty(env, 'REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redact(redisUrl)}".`);
  }
  const redisPrefix = nonEmpty(env, 'REDIS_PREFIX') ?? 'rebound:';
  if (!/^[\w:.-]{1,64}$/.test(redisPrefix))
    throw new ConfigError(
      `REDIS_PREFIX must be 1-64 letters, digits, colons, dots, dashes or underscores, got "${redisPrefix}".`,
    );
  const adminToken = nonEmpty(env, 'REBOUND_ADMIN_TOKEN') ?? null;
  if (adminToken !== null && adminToken.length < 24) {
    throw new ConfigError('REBOUND_ADMIN_TOKEN must be at least 24 characters long.');
  }
  const publicUrl = (nonEmpty(env, 'REBOUND_PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!isHttpUrl(publicUrl)) {
    throw new ConfigError(`REBOUND_PUBLIC_URL must be an http(s) URL, got "${publicUrl}".`);
  }
  const demo = booleanSetting(env, 'REBOUND_DEMO', true);
  const logLevel = (nonEmpty(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}".`);
  }
  const cacheTtlSeconds = integerSetting(env, 'CACHE_TTL_SECONDS', 60, 0, 86_400);
  const indexRefreshMs = integerSetting(env, 'REBOUND_INDEX_REFRESH_MS', 1000, 50, 600_000);
  const memoryBudgetMb = integerSetting(env, 'REBOUND_MEMORY_BUDGET_MB', 512, 128, 1_048_576);
  const modelIntervalS = integerSetting(env, 'REBOUND_MODEL_INTERVAL_S', 300, 0, 86_400);
  const modelDebounceS = integerSetting(env, 'REBOUND_MODEL_DEBOUNCE_S', 10, 0, 3_600);
  const workers = integerSetting(env, 'REBOUND_WORKERS', availableParallelism(), 1, 256);
  const keyRouting = booleanSetting(env, 'REBOUND_KEY_ROUTING', true) && workers > 1;
  const rawSecret = nonEmpty(env, 'REBOUND_SECRET_KEY');
  if (rawSecret !== undefined && !/^[0-9a-fA-F]{64}$/.test(rawSecret)) {
    throw new ConfigError(
      'REBOUND_SECRET_KEY must be 64 hex characters (32 random bytes, e.g. `openssl rand -hex 32`).',
    );
  }
  const secretKey = rawSecret === undefined ? null : Buffer.from(rawSecret, 'hex');
  const billingTimeoutMs = integerSetting(env, 'REBOUND_BILLING_TIMEOUT_MS', 5000, 100, 60_000);
  const allowPrivateUpstreams = booleanSetting(env, 'REBOUND_ALLOW_PRIVATE_UPSTREAMS', false);
  const platformPollMs = integerSetting(env, 'REBOUND_PLATFORM_POLL_MS', 2000, 10, 600_000);
  const platformExportMaxMb = integerSetting(env, 'REBOUND_PLATFORM_EXPORT_MAX_MB', 2048, 1, 1_048_576);
  const maxBodyMb = integerSetting(env, 'REBOUND_MAX_BODY_MB', 32, 1, 256);
  const trustProxy = trustProxySetting(env);
  const connectionsPerClient = integerSetting(env, 'REBOUND_CONNECTIONS_PER_CLIENT', 256, 0, 1_000_000);
  const shutdownGraceMs = integerSetting(env, 'REBOUND_SHUTDOWN_GRACE_MS', 10_000, 100, 600_000);
  const timeouts = serverTimeouts((name, fallback, min, max) => integerSetting(env, name, fallback, min, max));
  return Object.freeze({
    port,
    host,
    databaseUrl,
    redisUrl,
    redisPrefix,
    adminToken,
    publicUrl,
    demo,
    logLevel,
    cacheTtlSeconds,
    indexRefreshMs,
    modelIntervalS,
    modelDebounceS,
    secretKey,
    billingTimeoutMs,
    allowPrivateUpstreams,
    maxBodyMb,
    trustProxy,
    connectionsPerClient,
    timeouts,
    memoryBudgetMb,
    platformPollMs,
    platformExportMaxMb,
    shutdownGraceMs,
    workers,
    keyRouting,
  });
}

/**
 * A PostgreSQL schema as `?schema=` names it: PostgreSQL folds an unquoted name to lower case, so
 * `ShopGroup1` would be created under one name and searched under another.
 */
const PG_SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * `sqlite:` paths are resolved against the working directory so the file lands where the operator
 * expects; a PostgreSQL URL's schema is checked.
 */
function normalizeDatabaseUrl(url: string, cwd: string): string {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    let schema: string | null = null;
    try {
      schema = new URL(url).searchParams.get('schema');
    } catch {
      throw new ConfigError(`DATABASE_URL is not a URL: "${redact(url)}".`);
    }
    if (schema !== null && !PG_SCHEMA.test(schema))
      throw new ConfigError(
        `DATABASE_URL's schema must be 1-63 lower-case letters, digits or underscores, not starting with a digit, ` +
          `got "${schema.slice(0, 80)}".`,
      );
    return url;
  }
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new ConfigError('DATABASE_URL "sqlite:" needs a file name, e.g. sqlite:data/rebound.db.');
    if (file === ':memory:') return url;
    return `sqlite:${isAbsolute(file) ? file : resolve(cwd, file)}`;
  }
  throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${redact(url)}".`);
}

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return Number(raw);
}

function booleanSetting(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}".`);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Hides a password in a connection string before it goes into an error message. A URL that parses
 * keeps its user name; one that does not (a password holding an unencoded `/`, `?` or `#`), or whose
 * `@` a parser did not take as the end of credentials, loses everything from `//` to its last `@`:
 * hiding too much is harmless, printing a password is not.
 */
export function redact(url: string): string {
  const authority = url.indexOf('//');
  if (authority === -1 || url.indexOf('@', authority) === -1) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') {
      parsed.password = '***';
      return parsed.href;
    }
    if (parsed.username !== '') return url;
  } catch {
    // Not a URL a parser accepts: the credentials are cut by hand below.
  }
  const end = url.lastIndexOf('@');
  const credentials = url.slice(authority + 2, end);
  const user = credentials.includes(':') ? credentials.slice(0, credentials.indexOf(':')) : '';
  return `${url.slice(0, authority + 2)}${user}:***${url.slice(end)}`;
}

/** The configuration of this process: the one place the environment is read. */
export function loadProcessConfig(): Config {
  return loadConfig(process.env);
}

/** The environment a tool the CLI runs inherits (pg_dump, pg_restore), with what it adds. */
export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}
