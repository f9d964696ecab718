import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { CachedAnswer, ResponseCache } from '../../cache/response-cache.js';
import type { RateLimiter } from '../../cache/rate-limiter.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { KeyIndex } from '../../indexes/key-index.js';
import type { ShopCatalog } from '../../indexes/shop-catalog.js';
import { acceptsGzip, rawAcceptEncoding } from './accept-gzip.js';
import type { Recompute } from './answers.js';
import { publicLimit, visitorBucket } from './rate-limit.js';
import type { RequestSeries } from './request-metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's answer lane (its served count is what tests and operators look at). */
    answerLane: AnswerLane;
  }
}

/** A GET the route answered from the cache (or stored in it), as the lane needs it to answer the same URL again. */
export interface LaneEntry {
  shopId: number;
  /** The public key the query string presented, and its hash as the key index knew it then. */
  key: string;
  keyHash: string;
  /** The shop's data version (and model stamp) the answer was made from: a newer one means the route decides again. */
  version: string;
  answerKey: string;
  /** The route's path as Fastify names it, for the request metrics. */
  route: string;
  /**
   * A bust_cache=yes URL: the answer is computed afresh on the generation given (the route's own
   * computation on the parameters it read from this URL) and stored, never repeated from the cache.
   */
  recompute?: Recompute;
}

/** An entry as the lane keeps it: with the series its answers are counted in, looked up once. */
type Remembered = LaneEntry & { series: RequestSeries };

/** A request the lane takes: the shop's generation, the cached answer (null: to compute), the limit counted. */
interface Admitted {
  catalog: ShopCatalog;
  answer: CachedAnswer | null;
  limit: number;
  remaining: number;
  /** The visitor's rate-limit bucket this request was counted in. */
  bucket: string;
  /** Unpins the shop (a computation's); nothing for a repeat, which is sent before the lane returns. */
  release: () => void;
}

export interface LaneDeps {
  keys: KeyIndex;
  catalog: CatalogIndex;
  answers: ResponseCache;
  /** Stores a computed answer as the route does (this node's cache, and Redis when shared). */
  store: (answerKey: string, body: Buffer) => CachedAnswer;
  limiter: RateLimiter;
  version: (catalog: ShopCatalog) => string;
  /** The address's failed authentications have it refused (the route answers the 429). */
  blocked: (ip: string) => boolean;
  /** The request metrics' series of a route's 200 GETs (what every answer of the lane is). */
  series: (route: string) => RequestSeries;
  /** True while per-request lines are logged (info and below): then only the route answers, and logs. */
  logsRequests: () => boolean;
}

/** The server's request handler: Fastify's, which answers whatever the lane does not. */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** URLs longer than this are answered by the route only. */
const MAX_URL = 2048;

/**
 * The most the lane's entries may take, counted as `entryBytes` counts (a storefront's entry about
 * 650 bytes: some 6,000 of them). By count alone, URLs near MAX_URL (a visitor's, or long lists of
 * ids) could hold 40 MB of heap that no memory budget reckons with.
 */
export const LANE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * An entry's strings and the entry and map slots around them: a URL as Node's parser gives it is a
 * byte a character (Latin-1), as are the key, its hash and the version; the answer's key holds
 * decoded parameters, which may take two. An estimate, not a measure: it bounds the lane's size.
 */
function entryBytes(entry: Remembered, url: string): number {
  const latin1 = url.length + entry.key.length + entry.keyHash.length + entry.version.length;
  // A bust_cache=yes entry's computation holds the parameters read from its URL: about as much again.
  const recompute = entry.recompute ? 2 * url.length + 200 : 0;
  return latin1 + 2 * entry.answerKey.length + 160 + recompute;
}
const PLAIN = 'application/json; charset=utf-8';

/**
 * The answer lane: a repeat of a storefront GET whose answer is cached is sent before Fastify
 * builds a request, runs its hooks and the route. A cache hit through the route costs several times
 * the bare node:http answer it ends in (a request and reply object, a child logger, eleven hooks,
 * the parameters read again, the headers set one by one); here it costs a few map lookups.
 *
 * The lane answers only what the route would answer with the same bytes and headers, and does the
 * same checks for it: the address is not refused for failed authentications, the key is still
 * valid for the shop, the shop is resident and settled at the version the answer was made from,
 * the answer is still cached, and the per-visitor rate limit (counted as the route counts it) allows
 * it. Anything else — a changed shop, a refusal, a limit over, Redis deciding limits, a HEAD, a
 * request logged per line, a node closing — goes to Fastify, which answers as it always has.
 * Entries are made by the route (`remember`), only for GETs with a public key in the query string,
 * no customer and no experiment arm. A bust_cache=yes entry of a list is computed afresh on every
 * request, as the route would: only Fastify's request machinery and the parameter reading are skipped.
 */
export class AnswerLane {
  private readonly entries = new LRUCache<string, Remembered>({
    max: 10_000,
    maxSize: LANE_MAX_BYTES,
    sizeCalculation: entryBytes,
  });
  private deps: LaneDeps | null = null;
  private closed = false;
  /** Repeats answered from the cache. */
  served = 0;
  /** bust_cache=yes answers computed here. */
  computed = 0;

  /** Ready once the app is built: before that every request goes to Fastify. */
  attach(deps: LaneDeps): void {
    this.deps = deps;
  }

  /** The node is stopping: Fastify answers (and closes) every request from now on. */
  close(): void {
    this.closed = true;
  }

  /** Drops the shop's entries: their URLs name its visitors' sessions (an erasure keeps none). */
  forgetShop(shopId: number): void {
    const urls: string[] = [];
    for (const [url, entry] of this.entries.entries()) if (entry.shopId === shopId) urls.push(url);
    for (const url of urls) this.entries.delete(url);
  }

  /** The bytes the entries take, as `LANE_MAX_BYTES` bounds them. */
  get entryBytes(): number {
    return this.entries.calculatedSize;
  }

  remember(url: string, entry: LaneEntry): void {
    if (this.deps && url.length <= MAX_URL) this.entries.set(url, { ...entry, series: this.deps.series(entry.route) });
  }

  /**
   * Answers the request and returns true, or returns false untouched for Fastify to answer. A
   * computation that fails hands the request to `route` (which answers its error as always).
   */
  serve(req: IncomingMessage, res: ServerResponse, route: Handler): boolean {
    const deps = this.deps;
    if (deps === null || this.closed || req.method !== 'GET' || req.url === undefined) return false;
    const entry = this.entries.get(req.url);
    if (entry === undefined || deps.logsRequests()) return false;
    const started = performance.now();
    const admitted = admit(deps, req, entry);
    if (admitted === null) return false;
    if (admitted.answer === null) {
      // Nothing after the computation is expected to throw; should it, the connection ends, not the process.
      this.compute(deps, req, res, entry, admitted, started, route).catch(() => res.destroy());
      return true;
    }
    try {
      send(req, res, deps.answers, admitted.answer, admitted.limit, admitted.remaining, 'hit');
    } finally {
      admitted.release();
    }
    this.served++;
    entry.series.observe((performance.now() - started) / 1000);
    return true;
  }

  /** A bust_cache=yes answer: computed on the pinned generation, stored, sent as the route's miss. */
  private async compute(
    deps: LaneDeps,
    req: IncomingMessage,
    res: ServerResponse,
    entry: Remembered,
    admitted: Admitted,
    started: number,
    route: Handler,
  ): Promise<void> {
    let body: Buffer;
    try {
      body = await entry.recompute!(admitted.catalog, deps.answers.peek(entry.answerKey)?.body);
    } catch {
      // Not expected (the route computed this URL before); the route answers it and counts the request itself.
      admitted.release();
      deps.limiter.refundLocally(admitted.bucket);
      route(req, res);
      return;
    }
    try {
      send(req, res, deps.answers, deps.store(entry.answerKey, body), admitted.limit, admitted.remaining, 'miss');
    } finally {
      admitted.release();
    }
    this.computed++;
    entry.series.observe((performance.now() - started) / 1000);
  }
}

/**
 * The route's checks, in its order: the address, the key, the shop resident at the entry's
 * version, the cached answer (for a repeat), then the rate limit. Null: the route answers.
 */
function admit(deps: LaneDeps, req: IncomingMessage, entry: LaneEntry): Admitted | null {
  const ip = req.socket.remoteAddress;
  if (ip === undefined || deps.blocked(ip)) return null;
  const owner = deps.keys.lookup(entry.key);
  if (owner === null || owner.hash !== entry.keyHash || owner.shopId !== entry.shopId) return null;
  // Only a computation awaits, so only it pins the shop against eviction until it is sent.
  const hold = entry.recompute ? deps.catalog.hold(entry.shopId) : null;
  const release = hold?.release ?? unpinned;
  const catalog =
    hold === null ? deps.catalog.settled(entry.shopId) : hold.ready ? undefined : deps.catalog.get(entry.shopId);
  const current = catalog !== undefined && deps.version(catalog) === entry.version;
  const answer = !current ? undefined : entry.recompute ? null : deps.answers.hit(entry.answerKey);
  if (catalog === undefined || answer === undefined) {
    release();
    return null;
  }
  const limit = publicLimit(catalog.shop.settings);
  const bucket = visitorBucket(owner.hash, ip);
  const decision = deps.limiter.hitLocally(bucket, limit);
  if (decision === null || !decision.allowed) {
    // The route answers (a 429 over the limit) and counts the request itself.
    if (decision !== null) deps.limiter.refundLocally(bucket);
    release();
    return null;
  }
  return { catalog, answer, limit, remaining: decision.remaining, bucket, release };
}

const unpinned = (): void => {};

/** The route's cache-hit (or stored miss) answer, header lines in the order the route's hooks set them. */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  answers: ResponseCache,
  answer: CachedAnswer,
  limit: number,
  remaining: number,
  cache: 'hit' | 'miss',
): void {
  const gzip = acceptsGzip(rawAcceptEncoding(req.rawHeaders));
  if (gzip && answer.gzip === null) answers.compress(answer);
  const body = gzip && answer.gzip !== null ? answer.gzip : answer.body;
  const head = [
    'vary',
    'Accept-Encoding',
    'access-control-allow-origin',
    '*',
    'x-ratelimit-limit',
    String(limit),
    'x-ratelimit-remaining',
    String(remaining),
    'content-type',
    PLAIN,
    'x-cache',
    cache,
  ];
  if (body !== answer.body) head.push('content-encoding', 'gzip');
  head.push('x-content-type-options', 'nosniff', 'content-length', String(body.length));
  res.writeHead(200, head);
  res.end(body);
}
