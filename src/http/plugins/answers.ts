import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerKey, type CachedAnswer } from '../../cache/response-cache.js';
import type { SharedAnswers } from '../../cache/shared-answers.js';

/** Whether the client takes gzip (a plain substring test is what every server does; q=0 is honoured). */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' && header.includes('gzip') && !/gzip;\s*q=0(\.0*)?(,|$)/.test(header);
}

function send(cache: SharedAnswers, request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, state: 'hit' | 'miss' | 'bypass'): FastifyReply {
  void reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'Accept-Encoding').header('x-cache', state);
  if (acceptsGzip(request)) {
    if (answer.gzip) return reply.header('content-encoding', 'gzip').send(answer.gzip);
    cache.compress(answer);
  }
  return reply.send(answer.body);
}

function prettify(body: Buffer): Buffer {
  return Buffer.from(`${JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)}\n`);
}

/** `bust_cache` read from the raw query: true / false, or null when it is not a plain yes or no. */
function bustFlag(query: Record<string, unknown>): boolean | null {
  const raw = query.bust_cache;
  if (raw === undefined || raw === '') return false;
  if (typeof raw !== 'string') return null;
  const value = raw.trim().toLowerCase();
  return value === 'yes' ? true : value === 'no' ? false : null;
}

/**
 * Serves a cacheable JSON answer. A hit is looked up before any parameter is parsed (the same
 * query was valid when it was stored); a miss runs `compute`, which parses, validates and
 * builds the answer, then stores it. `bust_cache=yes` recomputes and replaces.
 */
export async function serveAnswer(
  cache: SharedAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { shopId: number; version: number | string },
  compute: () => Promise<{ body: Buffer; pretty: boolean }> | { body: Buffer; pretty: boolean },
): Promise<FastifyReply> {
  const path = request.routeOptions.url ?? request.url.split('?')[0]!;
  const query = request.query as Record<string, unknown>;
  const key = answerKey(scope.shopId, scope.version, `${path}|${JSON.stringify(request.params ?? {})}`, query);
  if (bustFlag(query) === false) {
    const hit = await cache.get(key);
    if (hit) return send(cache, request, reply, hit, 'hit');
  }
  const { body, pretty } = await compute();
  return send(cache, request, reply, cache.set(key, pretty ? prettify(body) : body), cache.enabled ? 'miss' : 'bypass');
}
