import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerKey, type CachedAnswer, type ResponseCache } from '../../cache/response-cache.js';

/** Whether the client takes gzip (a plain substring test is what every server does; q=0 is honoured). */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' && header.includes('gzip') && !/gzip;\s*q=0(\.0*)?(,|$)/.test(header);
}

function send(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, cache: 'hit' | 'miss' | 'bypass'): FastifyReply {
  void reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'Accept-Encoding').header('x-cache', cache);
  if (answer.gzip && acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(answer.gzip);
  return reply.send(answer.body);
}

function prettify(body: Buffer): Buffer {
  return Buffer.from(`${JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)}\n`);
}

/**
 * Serves a cacheable JSON answer: from the cache when present (compressed bytes made once),
 * else computed, stored and sent. `bust_cache=yes` recomputes and replaces.
 */
export function serveAnswer(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { shopId: number; version: number },
  options: { pretty: boolean; bustCache: boolean },
  compute: () => Buffer,
): FastifyReply {
  const path = request.routeOptions.url ?? request.url.split('?')[0]!;
  const key = answerKey(scope.shopId, scope.version, `${path}|${JSON.stringify(request.params ?? {})}`, request.query as Record<string, unknown>);
  if (!options.bustCache) {
    const hit = cache.get(key);
    if (hit) return send(request, reply, hit, 'hit');
  }
  let body = compute();
  if (options.pretty) body = prettify(body);
  return send(request, reply, cache.set(key, body), cache.enabled ? 'miss' : 'bypass');
}
