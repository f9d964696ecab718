import type { FastifyReply } from 'fastify';

/** Sends pre-assembled JSON bytes; `format=pretty` re-indents them (a debugging aid, not the hot path). */
export function sendJson(reply: FastifyReply, body: Buffer, pretty: boolean, status = 200): FastifyReply {
  void reply.status(status).header('content-type', 'application/json; charset=utf-8');
  if (pretty) return reply.send(`${JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)}\n`);
  return reply.send(body);
}
