import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerKey, type CachedAnswer } from '../../cache/response-cache.js';
import type { SharedAnswers } from '../../cache/shared-answers.js';
import { prettify } from '../render/products.js';

/** Whether the client takes gzip (a plain substring test is what every server does; q=0 is honoured). */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' && header.includes('gzip') && !/gzip;\s*q=0(\.0*)?(,|$)/.test(header);
}

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
  if (acceptsGzip(request)) {
    if (answer.gzip) return reply.header('content-encoding', 'gzip').send(answer.gzip);
    cache.compress(answer);
  }
  return reply.send(answer.body);
}

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
}

/**
 * Serves a cacheable JSON answer. The key is built from the parameters the route declares, read
 * and normalized, so `&x=<random>` or another spelling of the same request is a hit, not a
 * recomputation. A miss runs `compute` and stores its bytes.
 */
export async function serveAnswer(
  cache: SharedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: AnswerScope,
  compute: () => Promise<Buffer> | Buffer,
): Promise<FastifyReply> {
  const key = answerKey(scope.shopId, scope.version, `${scope.path}?${scope.params}`);
  const cacheable = scope.cacheable !== false && cache.enabled;
  if (cacheable && !scope.bust) {
    const hit = await cache.get(key);
    if (hit) return send(cache, request, reply, hit, 'hit');
  }
  const computed = await compute();
  const body = scope.pretty ? prettify(computed) : computed;
  if (!cacheable) return send(cache, request, reply, { body, gzip: null, compressing: true }, 'bypass');
  return send(cache, request, reply, cache.set(key, body), 'miss');
}
