import pRetry from 'p-retry';
import { BadGatewayError, UnavailableError } from '../../../domain/errors.js';
import type { UpstreamAnswer, UpstreamClient } from '../../upstream/client.js';
import { UpstreamError } from '../../upstream/errors.js';
import { parseUpstreamJson } from '../../../domain/inputs/upstream-json.js';

/** How a remote provider is called (docs/billing.md, "Retries, timeouts and faults"). */
export interface RemoteCallPolicy {
  /** One call, from sending to the last byte of the answer. */
  timeoutMs: number;
  /** Every try of one operation, backoff included. */
  budgetMs: number;
  tries: number;
  /** First backoff; it doubles each try, with jitter. */
  backoffMs: number;
}

export const DEFAULT_POLICY: RemoteCallPolicy = { timeoutMs: 5000, budgetMs: 10_000, tries: 4, backoffMs: 250 };

export interface RemoteEndpoint {
  /** The one outbound client: address rules, one deadline per call, the 2 MB answer cap. */
  upstream: UpstreamClient;
  /** The provider's base URL; the token is sent to it and to nothing else. */
  baseUrl: string;
  token: string;
  version: string;
  /** The shop's lane of the upstream client: its calls share a few slots, whatever its provider does. */
  lane: string;
}

/** The provider answered with a status that is not 2xx. Its body is not kept: it is never quoted. */
export class ProviderStatusError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | null,
  ) {
    super(`billing provider answered ${status}`);
  }
}

/** No answer: refused, dropped, or too slow. `sent` says whether the request may have reached the provider. */
export class ProviderNetworkError extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/** Every try failed; `mayHaveWritten` when a write's fate stayed unknown. */
export class ProviderUnavailable extends UnavailableError {
  constructor(
    retryAfterSeconds: number,
    readonly mayHaveWritten: boolean,
  ) {
    super('The billing provider is unavailable; try again.', retryAfterSeconds, 'upstream_unavailable');
  }
}

const transient = (error: unknown): boolean =>
  error instanceof ProviderNetworkError ||
  (error instanceof ProviderStatusError && (error.status === 429 || error.status >= 500));

/** Whether a failed write may still have happened on the provider's side (so a retry must look first). */
const ambiguous = (error: unknown): boolean =>
  (error instanceof ProviderNetworkError && error.sent) ||
  (error instanceof ProviderStatusError && error.status >= 500);

/** `Retry-After` as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d{1,6}$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** One HTTP call with the version and token headers, under one deadline and the answer cap; JSON in and out. */
async function send(
  endpoint: RemoteEndpoint,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<unknown> {
  let answer: UpstreamAnswer;
  try {
    answer = await endpoint.upstream.call({
      url: `${endpoint.baseUrl}${path}`,
      method,
      deadlineMs: timeoutMs,
      maxBytes: ANSWER_CAP_BYTES,
      lane: endpoint.lane,
      headers: {
        'x-recharge-access-token': endpoint.token,
        'x-recharge-version': endpoint.version,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw upstreamFailure(error);
  }
  if (answer.status < 200 || answer.status >= 300)
    throw new ProviderStatusError(answer.status, parseRetryAfter(answer.headers['retry-after']));
  if (answer.body.length === 0) return {};
  try {
    return parseUpstreamJson(answer.body.toString('utf8'));
  } catch {
    throw new BadGatewayError('The billing provider answered something that is not JSON.', 'upstream_invalid');
  }
}

/** The largest answer read from the provider (§18): past it the call ends as a 502 at once. */
export const ANSWER_CAP_BYTES = 2 * 1024 * 1024;

/**
 * An upstream failure in the provider's terms: an oversized answer, a refused address or an answer
 * that stalled after it began are 502s, never retried (a hostile provider cannot hold a shop's
 * requests); no answer at all is a network error the retries cover.
 */
function upstreamFailure(error: unknown): unknown {
  if (!(error instanceof UpstreamError)) return error;
  if (error.reason === 'too_large')
    return new BadGatewayError('The billing provider answered more than 2 MB; the call was ended.');
  const rested = 'The billing provider answered more than 2 MB a moment ago; calls to it resume shortly.';
  if (error.reason === 'resting') return new BadGatewayError(rested);
  if (error.reason === 'address')
    return new BadGatewayError(
      "The billing provider's address is not a public https address; check the shop's base_url.",
    );
  if (error.reason === 'deadline' && error.answered)
    return new BadGatewayError('The billing provider did not finish its answer in time.');
  return new ProviderNetworkError(error.message, error.sent);
}

export interface WriteOptions<T> {
  /**
   * Looks for the effect of an earlier try whose fate is unknown; a found value ends the
   * operation without writing again. Without it, an unknown fate is never retried.
   */
  lookup?: () => Promise<T | undefined>;
  /** Look before the first try too (an earlier request may have written). */
  lookupFirst?: boolean;
}

/**
 * Calls a remote provider: reads retried on 429, 5xx and lost connections with exponential
 * backoff and jitter (at least `Retry-After` apart); writes retried only after their lookup
 * says the earlier try did not happen.
 */
export function createRemoteClient(endpoint: RemoteEndpoint, policy: RemoteCallPolicy = DEFAULT_POLICY) {
  async function withRetries<T>(
    attempt: (tryNumber: number) => Promise<T>,
    isWrite: boolean,
    lookup?: () => Promise<T | undefined>,
    lookupFirst = false,
  ): Promise<T> {
    const started = Date.now();
    let unknownFate = lookupFirst;
    let retryAfterMs: number | null = null;
    try {
      return await pRetry(
        async (tryNumber) => {
          if (unknownFate && lookup) {
            const found = await lookup();
            if (found !== undefined) return found;
            unknownFate = false;
          }
          try {
            return await attempt(tryNumber);
          } catch (error) {
            if (isWrite && ambiguous(error)) unknownFate = true;
            throw error;
          }
        },
        {
          retries: policy.tries - 1,
          factor: 2,
          minTimeout: policy.backoffMs,
          maxTimeout: policy.budgetMs,
          randomize: true,
          maxRetryTime: policy.budgetMs,
          shouldRetry: ({ error }) => transient(error) && !(isWrite && unknownFate && !lookup),
          onFailedAttempt: async ({ error }) => {
            retryAfterMs = error instanceof ProviderStatusError ? error.retryAfterMs : null;
            if (retryAfterMs === null) return;
            // Honour Retry-After, unless it points past the budget: then give up now and pass it on.
            if (Date.now() - started + retryAfterMs > policy.budgetMs)
              throw new ProviderUnavailable(Math.ceil(retryAfterMs / 1000), isWrite && unknownFate);
            await new Promise((resolve) => setTimeout(resolve, retryAfterMs!));
          },
        },
      );
    } catch (error) {
      if (error instanceof ProviderUnavailable)
        throw isWrite && unknownFate && !error.mayHaveWritten ? new ProviderUnavailable(error.retryAfter, true) : error;
      if (transient(error))
        throw new ProviderUnavailable(
          retryAfterMs === null ? 5 : Math.max(1, Math.ceil(retryAfterMs / 1000)),
          isWrite && unknownFate,
        );
      throw translate(error);
    }
  }

  return {
    /** A read; null when the provider answers 404. */
    async get<T>(path: string): Promise<T | null> {
      return withRetries(async () => {
        try {
          return (await send(endpoint, 'GET', path, undefined, policy.timeoutMs)) as T;
        } catch (error) {
          if (error instanceof ProviderStatusError && error.status === 404) return null;
          throw error;
        }
      }, false);
    },

    /**
     * One try of a read, for a write's lookup: the write's own retries cover it, so its
     * failures are not retried here (no retries within retries).
     */
    async peek<T>(path: string): Promise<T | null> {
      try {
        return (await send(endpoint, 'GET', path, undefined, policy.timeoutMs)) as T;
      } catch (error) {
        if (error instanceof ProviderStatusError && error.status === 404) return null;
        throw error;
      }
    },

    /** A write (POST, PUT, DELETE) made at most once: see `WriteOptions`. */
    async write<T>(
      method: 'POST' | 'PUT' | 'DELETE',
      path: string,
      body: unknown,
      options: WriteOptions<T> = {},
    ): Promise<T> {
      return withRetries(
        async () => (await send(endpoint, method, path, body, policy.timeoutMs)) as T,
        true,
        options.lookup,
        options.lookupFirst === true,
      );
    },
  };
}

export type RemoteClient = ReturnType<typeof createRemoteClient>;

/** A provider refusal in the caller's words: its status only, never the provider's text. */
function translate(error: unknown): unknown {
  if (!(error instanceof ProviderStatusError)) return error;
  if (error.status === 401 || error.status === 403) {
    return new BadGatewayError(
      "The billing provider refused Rebound's API token; check the shop's billing provider settings.",
    );
  }
  return new BadGatewayError(`The billing provider refused the request (${error.status}).`);
}
