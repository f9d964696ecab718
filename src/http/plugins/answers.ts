import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerKey, type CachedAnswer } from '../../cache/response-cache.js';
import type { SharedAnswers } from '../../cache/shared-answers.js';
import type { ShopCatalog } from '../../indexes/shop-catalog.js';
import { prettify } from '../render/products.js';
import { acceptsGzip } from './accept-gzip.js';
import type { AnswerLane } from './answer-lane.js';

function send(
  cache: SharedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  state: 'hit' | 'miss' | 'bypass',
): FastifyReply {
  void reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('vary', 'Accept-Encoding')
    .header('x-cache', state);
  if (acceptsGzip(request.headers['accept-encoding'])) {
    if (answer.gzip) return reply.header('content-encoding', 'gzip').send(answer.gzip);
    cache.compress(answer);
  }
  return reply.send(answer.body);
}

/**
 * A route's computation of an answer on a generation of the shop; `previous`, the bytes stored for
 * it, is returned itself when the answer comes out the same.
 */
export type Recompute = (catalog: ShopCatalog, previous?: Buffer) => Promise<Buffer>;

/** Which answer a request asks for: the shop's data version, the resolved path and the canonical parameters. */
export interface AnswerScope {
  shopId: number;
  /** The shop's data version, with its model's stamp: any change makes older answers unreachable. */
  version: number | string;
  /** The path with its parameters resolved (e.g. `/custom/id/7`). */
  path: string;
  /** The declared parameters in canonical form (`paramsKey`): unknown ones never reach it. */
  params: string;
  /** bust_cache=yes: compute afresh and replace. */
  bust: boolean;
  /** format=pretty: cached as its own, indented bytes. */
  pretty: boolean;
  /** False for answers no data version tracks (a visitor's views): computed on every request. */
  cacheable?: boolean;
  /**
   * The lane that answers repeats of this URL, when the route's answer depends on nothing but the
   * URL and the shop's version (no customer, no experiment arm): told of every hit and stored miss.
   */
  lane?: AnswerLane;
  /**
   * The route's computation on another generation of the shop (at the same version): with it, the
   * lane computes repeats of this bust_cache=yes URL itself, as the route would, without the route.
   */
  recompute?: Recompute;
}

/**
 * Tells the lane a GET with a public key in its query string was answered from (or into) the cache,
 * or, with `recompute`, computed afresh for bust_cache=yes.
 */
function remember(request: FastifyRequest, scope: AnswerScope, answerKey: string, recompute?: Recompute): void {
  const key = (request.query as { key?: unknown }).key;
  const apiKey = request.apiKey;
  if (request.method !== 'GET' || apiKey?.kind !== 'public' || typeof key !== 'string' || !request.raw.url) return;
  scope.lane?.remember(request.raw.url, {
    shopId: scope.shopId,
    key,
    keyHash: apiKey.hash,
    version: String(scope.version),
    answerKey,
    route: request.routeOptions.url ?? request.url,
    ...(recompute ? { recompute } : {}),
  });
}

/**
 * Serves a cacheable JSON answer. The key is built from the parameters the route declares, read
 * and normalized, so `&x=<random>` or another spelling of the same request is a hit, not a
 * recomputation. A hit in this node's cache is sent at once (undefined: nothing to wait for, no
 * promise made); anything else (Redis, or `compute` on a miss, whose bytes are stored) is a promise.
 */
export function serveAnswer(
  cache: SharedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: AnswerScope,
  compute: () => Promise<Buffer> | Buffer,
): Promise<FastifyReply> | undefined {
  const key = answerKey(scope.shopId, scope.version, `${scope.path}?${scope.params}`);
  const cacheable = scope.cacheable !== false && cache.enabled;
  if (cacheable && !scope.bust) {
    const hit = cache.local.get(key);
    if (hit) {
      send(cache, request, reply, hit, 'hit');
      if (scope.lane) remember(request, scope, key);
      return undefined;
    }
  }
  return answerAfresh(cache, request, reply, { key, cacheable, lookRemote: cacheable && !scope.bust }, scope, compute);
}

async function answerAfresh(
  cache: SharedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  { key, cacheable, lookRemote }: { key: string; cacheable: boolean; lookRemote: boolean },
  scope: AnswerScope,
  compute: () => Promise<Buffer> | Buffer,
): Promise<FastifyReply> {
  if (lookRemote) {
    const hit = await cache.getRemote(key);
    if (hit) {
      if (scope.lane) remember(request, scope, key);
      return send(cache, request, reply, hit, 'hit');
    }
  }
  const drops = cache.local.dropsOf(scope.shopId);
  const computed = await compute();
  const body = scope.pretty ? prettify(computed) : computed;
  // An erasure dropped the shop's answers while this one was computed from what it deleted: not kept.
  const forgotten = cache.local.dropsOf(scope.shopId) !== drops;
  if (!cacheable || forgotten) return send(cache, request, reply, { body, gzip: null, compressing: true }, 'bypass');
  const stored = cache.set(key, body);
  if (scope.lane && cache.enabled) {
    if (!scope.bust) remember(request, scope, key);
    else if (scope.recompute) remember(request, scope, key, recomputing(scope.recompute, scope.pretty));
  }
  return send(cache, request, reply, stored, 'miss');
}

/** The stored bytes of a recomputation, indented as the request asked (then made anew each time). */
function recomputing(compute: Recompute, pretty: boolean): Recompute {
  return pretty ? async (catalog) => prettify(await compute(catalog)) : compute;
}
