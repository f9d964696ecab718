import { isIP } from 'node:net';
import { ConfigError } from './errors.js';

type Env = Record<string, string | undefined>;

/**
 * Which proxies may name the client in X-Forwarded-For: none, every
 * hop, a hop count, or addresses / CIDRs (Fastify's trustProxy).
 */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for the private ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** `TRUST_PROXY`: off by default (docs/operations.md, "Behind a proxy"). */
export function trustProxySetting(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || /^(false|0|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isAddressOrCidr(e));
  if (bad !== undefined || entries.length === 0) {
    throw new ConfigError(
      'TRUST_PROXY must be true, false, a hop count, or a comma list of addresses and ' +
        `CIDRs (or loopback, linklocal, uniquelocal); "${bad ?? raw}" is none of these.`,
    );
  }
  return entries;
}

/** How long a connection may take over each part of a request (docs/operations.md, "Process limits"). */
export interface ServerTimeouts {
  /** The whole request, headers and body (Node's requestTimeout). */
  readonly requestTimeoutMs: number;
  /** The request's headers (Node's headersTimeout): a slow sender cannot hold a socket longer. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection; longer than a load balancer's own idle timeout (60 s on most). */
  readonly keepAliveTimeoutMs: number;
}

export function serverTimeouts(
  integer: (name: string, fallback: number, min: number, max: number) => number,
): ServerTimeouts {
  const requestTimeoutMs = integer('REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000);
  const headersTimeoutMs = integer('HEADERS_TIMEOUT_MS', 10_000, 500, 600_000);
  const keepAliveTimeoutMs = integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 600_000);
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs}).`,
    );
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}
