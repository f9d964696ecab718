import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { InvalidDocumentError } from '../../domain/errors.js';
import { isPublicAddress, upstreamUrlProblem } from './address.js';
import { cappedChunks, cappedLines, discard, readCapped } from './bounded-body.js';
import { UpstreamError, asUpstreamError } from './errors.js';
import { Lanes } from './lanes.js';
import { RestingLanes } from './resting.js';

/** A billing provider's answer is small: 2 MB is far above any documented page. */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

const SAVE_LOOKUP_DEADLINE_MS = 3000;

export interface UpstreamOptions {
  /** REBOUND_ALLOW_PRIVATE_UPSTREAMS: plain http and private addresses allowed (development and tests only). */
  allowPrivate: boolean;
  /** Name resolution (tests resolve names of their own); every address it returns is checked. */
  lookup?: LookupFunction;
  /** Connections kept per origin. */
  connections?: number;
  /** Calls in flight per lane at most (default 4); more wait under their deadline. */
  perLane?: number;
  /** A lane whose answer broke the byte cap is refused, unsent, for this long (default 30 s; 0: never). */
  restAfterTooLargeMs?: number;
}

/** One outbound request. The deadline covers connecting, the headers and the whole body. */
export interface UpstreamRequest {
  /** Absolute URL: the origin must pass the address rules; a query is allowed here (not in a saved base URL). */
  url: string;
  method?: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  deadlineMs: number;
  /** Cap on the answer's bytes (`call`) or on all its bytes together (`open`); default 2 MB. */
  maxBytes?: number;
  /** Whose call this is (e.g. `billing:<shop id>`): calls of one lane share a few slots. */
  lane?: string;
}

export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, whole and within the cap. For the caller to parse; never to quote in an answer or a log. */
  body: Buffer;
}

export interface UpstreamStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's chunks, within the total cap and the deadline. Read once, by `chunks` or `lines`. */
  chunks(): AsyncGenerator<Buffer>;
  /** The body's non-empty lines (JSONL), each at most `maxLineBytes`; at most one line is held. */
  lines(maxLineBytes: number): AsyncGenerator<string>;
  /** Drops the connection (a reader that stops early need not call it: leaving the loop does). */
  cancel(): void;
}

/**
 * The one HTTP client of every outbound call (billing provider, storefront platform). It refuses
 * a URL the address rules refuse, checks every address a host name resolves to when it connects
 * (so a name that turns private after it was saved, DNS rebinding, is refused too), follows no
 * redirect, holds each call to one deadline, and reads answers as streams under a byte cap.
 */
export function createUpstreamClient(options: UpstreamOptions) {
  // undici (about 4 MB of heap) is loaded by the first call: most nodes never call out, or not soon.
  let agent: Promise<Agent> | null = null;
  const dispatcher = () =>
    (agent ??= import('undici').then(
      ({ Agent }) =>
        new Agent({
          connections: options.connections ?? 16,
          // The per-call deadline is the limit; these only keep undici's own longer defaults out of the way.
          headersTimeout: 0,
          bodyTimeout: 0,
          connect: options.allowPrivate
            ? options.lookup
              ? { lookup: options.lookup }
              : {}
            : { lookup: publicOnly(options.lookup ?? dnsLookup) },
        }),
    ));

  const lanes = new Lanes(options.perLane ?? 4);
  const resting = new RestingLanes(options.restAfterTooLargeMs ?? 30_000);

  async function start(request: UpstreamRequest) {
    const url = new URL(request.url);
    const problem = upstreamUrlProblem(url.origin, options.allowPrivate);
    if (problem !== null) throw new UpstreamError('address', `upstream address refused: ${problem}`, false);
    // A rest holds the lane's calls to the origin that broke the cap, not to a provider moved elsewhere.
    const restKey = request.lane === undefined ? undefined : `${request.lane} ${url.origin}`;
    if (restKey !== undefined) resting.check(restKey);
    const signal = AbortSignal.timeout(request.deadlineMs);
    const release = request.lane === undefined ? () => undefined : await lanes.acquire(request.lane, signal);
    try {
      // Again once a slot is free: a call that waited behind the one that broke the cap is not sent.
      if (restKey !== undefined) resting.check(restKey);
      const response = await (await dispatcher()).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method ?? 'GET',
        headers: request.headers ?? {},
        signal,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      // The slot is held until the body is read, dropped or timed out.
      response.body.once('close', release);
      const noteFailure = (error: unknown) => restKey !== undefined && resting.noteFailure(restKey, error);
      return { response, signal, noteFailure };
    } catch (error) {
      release();
      throw asUpstreamError(error, signal.aborted, false);
    }
  }

  const resolve = options.lookup ?? dnsLookup;

  return {
    /** One request whose whole answer is read under the cap and the deadline. */
    async call(request: UpstreamRequest): Promise<UpstreamAnswer> {
      const { response, signal, noteFailure } = await start(request);
      const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
      try {
        if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
          discard(response.body);
          throw new UpstreamError('too_large', `the answer is larger than ${maxBytes} bytes`, true, true);
        }
        const body = await readCapped(response.body, maxBytes);
        return { status: response.statusCode, headers: response.headers, body };
      } catch (error) {
        noteFailure(error);
        throw asUpstreamError(error, signal.aborted, true);
      }
    },

    /** One request whose answer is handed over as a bounded stream (the deadline still covers all of it). */
    async open(request: UpstreamRequest): Promise<UpstreamStream> {
      const { response, signal, noteFailure } = await start(request);
      const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
      const guarded = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
        try {
          yield* source;
        } catch (error) {
          noteFailure(error);
          throw asUpstreamError(error, signal.aborted, true);
        }
      };
      const chunks = () => guarded(cappedChunks(response.body, maxBytes));
      return {
        status: response.statusCode,
        headers: response.headers,
        chunks,
        lines: (maxLineBytes) => cappedLines(chunks(), maxLineBytes),
        cancel: () => discard(response.body),
      };
    },

    /**
     * Save-time check of a URL the address rules accept: a 422 naming `field` when its host name
     * resolves now to a refused address. A name that does not resolve passes (its calls fail, unsent);
     * the resolved address is checked again on every connection either way.
     */
    async checkResolves(value: string, field: string): Promise<void> {
      const host = new URL(value).hostname;
      if (options.allowPrivate || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return;
      // A resolver that does not answer within the deadline counts as "does not resolve".
      const addresses = await new Promise<LookupAddress[]>((done) => {
        const timer = setTimeout(() => done([]), SAVE_LOOKUP_DEADLINE_MS);
        resolve(host, { all: true }, (error, found) => {
          clearTimeout(timer);
          done(error ? [] : (found as unknown as LookupAddress[]));
        });
      });
      if (addresses.some((entry) => !isPublicAddress(entry.address)))
        throw new InvalidDocumentError(`Invalid ${field}: the host resolves to a non-public address.`, [
          { path: field, message: 'resolves to a non-public address' },
        ]);
    },

    async close(): Promise<void> {
      if (agent) await (await agent).close().catch(() => undefined);
    },
  };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

/** A resolver that fails when any address of the name is refused: the connection is never opened. */
function publicOnly(resolve: LookupFunction): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isPublicAddress(entry.address))) {
        const refused = new UpstreamError(
          'address',
          `upstream address refused: ${hostname} resolves to a non-public address`,
          false,
        );
        return callback(Object.assign(refused, { code: 'EADDRNOTAVAIL' }), '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
