import { redact } from '../config/config.js';

/** A failure the CLI reports in one line, without a stack (apart from src/cli/backup.ts, which raises it). */
export class CommandError extends Error {}

/** A command line that does not make sense: reported with the usage text. */
export class UsageError extends Error {}

interface SystemError {
  code?: string;
  syscall?: string;
  address?: string;
  hostname?: string;
  port?: number;
  message: string;
  /** PostgreSQL's own errors carry it (pg-protocol); a socket's do not. */
  severity?: string;
  /** Node joins one connection's attempts at each address of a host into one error. */
  errors?: SystemError[];
}

/** The settings a failure can be traced to. */
interface Settings {
  databaseUrl: string;
  redisUrl: string | null;
  port: number;
  host: string;
}

const REACHING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);
/**
 * PostgreSQL's refusals that a setting explains (SQLSTATE classes 08 connection, 28 credentials, 3D
 * no such database, 53 resources, 57P shutting down, and 42501 no privilege); a query's own error is a
 * defect.
 */
const POSTGRES_REFUSALS = /^(08|28|3D|53|57P|42501)/;
/** pg's and pg-pool's connection timeouts (a server that accepts and never answers): messages, no code. */
const PG_CONNECT_TIMEOUTS = new Set([
  'timeout expired',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
]);
/** SQLite's failures to open or write the file; a statement's own error is a defect. */
const SQLITE_FILE_FAILURES = /^SQLITE_(CANTOPEN|READONLY|NOTADB|PERM|FULL|CORRUPT|IOERR)/;

/** Host and port of a connection string, with the driver's default port. */
function endpointOf(url: string, defaultPort: number): { host: string; port: number } | null {
  try {
    const parsed = new URL(url);
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || defaultPort) };
  } catch {
    return null;
  }
}

function reaches(error: SystemError, endpoint: { host: string; port: number } | null): boolean {
  if (!endpoint) return false;
  if (error.hostname !== undefined) return error.hostname === endpoint.host;
  return error.port === endpoint.port;
}

/**
 * One line naming the setting to look at, for the failures an operator fixes in the environment (a
 * database or Redis out of reach, refusing the credentials, a port taken), or null for anything
 * else, which is a defect and keeps its stack. A password in a URL is never printed.
 */
export function settingAtFault(failure: unknown, settings: Settings): string | null {
  const error = failure as SystemError;
  if (typeof error?.message !== 'string') return null;
  const first = error.errors?.[0] ?? error;
  const database = `the database at ${redact(settings.databaseUrl)} (DATABASE_URL)`;
  // A worker of a node binds through its primary, and is told `bind`.
  if (
    (first.syscall === 'listen' || first.syscall === 'bind') &&
    (first.code === 'EADDRINUSE' || first.code === 'EACCES')
  ) {
    const taken = first.code === 'EADDRINUSE' ? 'is taken by another process' : 'needs privileges this process lacks';
    return `port ${settings.port} on ${settings.host} ${taken} (PORT, HOST).`;
  }
  if ((first.syscall === 'listen' || first.syscall === 'bind') && first.code === 'EADDRNOTAVAIL')
    return `${settings.host} is not an address of this machine (HOST).`;
  // HOST a name: the server resolves it before it listens.
  if (first.syscall === 'getaddrinfo' && first.hostname === settings.host)
    return `${settings.host} does not resolve to an address (HOST): ${first.code}.`;
  if (settings.databaseUrl.startsWith('sqlite:') && SQLITE_FILE_FAILURES.test(first.code ?? '')) {
    return `cannot use ${database}: ${first.message}.`;
  }
  const postgres = settings.databaseUrl.startsWith('postgres');
  // PostgreSQL answered and refused: a wrong password, a database or role that does not exist.
  if (postgres && first.severity !== undefined && POSTGRES_REFUSALS.test(first.code ?? ''))
    return `cannot use ${database}: ${first.message}.`;
  if (postgres && PG_CONNECT_TIMEOUTS.has(first.message))
    return `cannot reach ${database}: no answer within the connection timeout.`;
  if (first.code === undefined || !REACHING.has(first.code)) return null;
  if (postgres && reaches(first, endpointOf(settings.databaseUrl, 5432)))
    return `cannot reach ${database}: ${first.code}.`;
  if (settings.redisUrl !== null && reaches(first, endpointOf(settings.redisUrl, 6379)))
    return `cannot reach Redis at ${redact(settings.redisUrl)} (REDIS_URL): ${first.code}.`;
  return null;
}
