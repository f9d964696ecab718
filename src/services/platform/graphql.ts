import type { UpstreamClient } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import { parseUpstreamJson } from '../../domain/inputs/upstream-json.js';

/**
 * Why a platform call failed, in words safe to show: a status or the platform's documented error code, never its body.
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    /** The token was refused (401/403): three in a row mark the connection failing. */
    readonly refused = false,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export interface GraphqlPolicy {
  /** One call, from sending to the last byte. */
  deadlineMs: number;
  /** Tries of one query (throttling, 429 and 5xx retried). */
  tries: number;
  /** First backoff after a 5xx or a dropped connection; doubles each try, with jitter. */
  backoffMs: number;
  /** Cap on one answer's bytes. */
  maxBytes: number;
  /**
   * The longest one wait for the platform may be, whatever it asks (`Retry-After`, or the time its
   * throttle status says the bucket needs): a day's Retry-After, or a restore rate of a thousandth
   * of a point a second, held the shop's sync, and the webhooks waiting behind it, for as long.
   * Past it the call is tried again after this long, and the tries end as they do.
   */
  maxWaitMs: number;
}

export const DEFAULT_GRAPHQL_POLICY: GraphqlPolicy = {
  deadlineMs: 30_000,
  tries: 8,
  backoffMs: 500,
  maxBytes: 8 * 1024 * 1024,
  maxWaitMs: 60_000,
};

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message?: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
function retryAfterMs(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d{1,6}(\.\d+)?$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counters the metrics read. */
export const graphqlStats = { calls: 0, throttled: 0, retried: 0, refused: 0, waitedMs: 0 };

/**
 * The GraphQL Admin API of one shop, over the upstream client: `{api_url}/graphql.json` with
 * `X-Shopify-Access-Token`. It honours the cost-based throttle the answers report (waiting while
 * fewer points are available than the next query is expected to cost), retries `THROTTLED`, `429`
 * (after `Retry-After`) and `5xx` with backoff, and reports a refused token as such.
 */
export function createGraphqlClient(deps: {
  upstream: Pick<UpstreamClient, 'call' | 'open'>;
  apiUrl: string;
  token: string;
  policy?: Partial<GraphqlPolicy>;
  /** The process is stopping: a wait between tries ends the call (the sync is started again later). */
  stopping?: () => boolean;
}) {
  const policy = { ...DEFAULT_GRAPHQL_POLICY, ...deps.policy };

  /** Sleeps, a quarter second at a time: tries wait up to a minute, and a stop must not wait for them. */
  async function pause(ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= 250) {
      if (deps.stopping?.()) throw new PlatformError('the sync was stopped');
      await sleep(Math.min(left, 250));
    }
    if (deps.stopping?.()) throw new PlatformError('the sync was stopped');
  }
  const endpoint = `${deps.apiUrl.replace(/\/+$/, '')}/graphql.json`;
  let throttle: (ThrottleStatus & { at: number }) | null = null;
  const costs = new Map<string, number>();
  // A query not sent yet is expected to cost as much as the dearest one seen.
  let dearest = 10;
  const expectedCost = (query: string) => costs.get(query) ?? dearest;

  /** Waits until the bucket should hold `cost` points again, as the last answer described it. */
  async function waitForPoints(cost: number): Promise<void> {
    if (!throttle || throttle.restoreRate <= 0) return;
    const available = Math.min(
      throttle.maximumAvailable,
      throttle.currentlyAvailable + ((Date.now() - throttle.at) / 1000) * throttle.restoreRate,
    );
    if (available >= cost) return;
    const needed = ((Math.min(cost, throttle.maximumAvailable) - available) / throttle.restoreRate) * 1000;
    const waitMs = Math.min(policy.maxWaitMs, Math.ceil(needed));
    graphqlStats.waitedMs += waitMs;
    await pause(waitMs);
  }

  async function once(
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ retryAfter: number } | GraphqlAnswer> {
    await waitForPoints(expectedCost(query));
    graphqlStats.calls++;
    let answer: Awaited<ReturnType<typeof deps.upstream.call>>;
    try {
      answer = await deps.upstream.call({
        url: endpoint,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-shopify-access-token': deps.token,
        },
        body: JSON.stringify({ query, variables }),
        deadlineMs: policy.deadlineMs,
        maxBytes: policy.maxBytes,
      });
    } catch (error) {
      const reason = (error as { reason?: string }).reason;
      if (reason === 'address' || reason === 'too_large')
        throw new PlatformError(`the platform could not be called (${reason})`);
      return { retryAfter: -1 };
    }
    if (answer.status === 401 || answer.status === 403) {
      graphqlStats.refused++;
      throw new PlatformError(`the platform refused the access token (${answer.status})`, true);
    }
    if (answer.status === 429)
      return { retryAfter: Math.min(policy.maxWaitMs, retryAfterMs(answer.headers['retry-after']) ?? 1000) };
    if (answer.status >= 500) return { retryAfter: -1 };
    if (answer.status !== 200) throw new PlatformError(`the platform answered ${answer.status}`);
    let parsed: GraphqlAnswer;
    try {
      parsed = parseUpstreamJson(answer.body.toString('utf8')) as GraphqlAnswer;
    } catch {
      throw new PlatformError('the platform answered something that is not JSON');
    }
    const cost = parsed.extensions?.cost;
    if (cost?.throttleStatus) throttle = { ...cost.throttleStatus, at: Date.now() };
    if (typeof cost?.requestedQueryCost === 'number') {
      costs.set(query, cost.requestedQueryCost);
      dearest = Math.max(dearest, cost.requestedQueryCost);
    }
    return parsed;
  }

  return {
    /** The `data` of a query; GraphQL errors other than throttling end it with their documented code. */
    async request<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const result = await once(query, variables);
        const last = attempt >= policy.tries;
        if ('retryAfter' in result) {
          if (last) throw new PlatformError('the platform is unavailable (retries exhausted)');
          graphqlStats.retried++;
          const backoff = policy.backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
          await pause(result.retryAfter >= 0 ? result.retryAfter : backoff);
          continue;
        }
        const codes = (result.errors ?? []).map((e) => e.extensions?.code ?? 'GRAPHQL_ERROR');
        if (codes.includes('THROTTLED')) {
          graphqlStats.throttled++;
          if (last) throw new PlatformError('the platform kept throttling (THROTTLED)');
          // The answer's throttle status says how long the bucket needs; at least one restore step.
          await waitForPoints(expectedCost(query));
          await pause(50);
          continue;
        }
        if (codes.includes('ACCESS_DENIED') && !result.data)
          throw new PlatformError('the platform denied access (ACCESS_DENIED)', true);
        if (codes.length > 0 && !result.data)
          throw new PlatformError(`the platform answered an error (${[...new Set(codes)].join(', ')})`);
        return (result.data ?? {}) as T;
      }
    },

    /** The lines of a bulk export's JSONL file, one at a time (never the whole file). */
    /** An export file's lines, each at most `maxLineBytes`, the file at most `maxFileBytes`. */
    async *lines(
      url: string,
      limits: { fileDeadlineMs: number; maxLineBytes: number; maxFileBytes: number },
    ): AsyncGenerator<string> {
      const stream = await deps.upstream.open({
        url,
        deadlineMs: limits.fileDeadlineMs,
        maxBytes: limits.maxFileBytes,
      });
      if (stream.status !== 200) {
        stream.cancel();
        throw new PlatformError(`the export file could not be read (${stream.status})`);
      }
      try {
        yield* stream.lines(limits.maxLineBytes);
      } catch (error) {
        // Said as the sync's own failure: the bound is the operator's (REBOUND_PLATFORM_EXPORT_MAX_MB).
        if (!(error instanceof UpstreamError) || error.reason !== 'too_large') throw error;
        throw new PlatformError(
          error.message.startsWith('a line')
            ? `a line of the export file is larger than ${limits.maxLineBytes} bytes`
            : `the export file is larger than ${limits.maxFileBytes} bytes (REBOUND_PLATFORM_EXPORT_MAX_MB)`,
        );
      }
    },
  };
}

export type GraphqlClient = ReturnType<typeof createGraphqlClient>;
