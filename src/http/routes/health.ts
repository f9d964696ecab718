import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../domain/errors.js';
import { Errors } from '../schemas/errors.js';
import { Live, Ready } from '../schemas/operations.js';

/** Liveness (the process answers) and readiness (the database answers). */
export function healthRoutes(app: FastifyInstance, database: { ping(): Promise<void> }): void {
  app.get('/healthz', { schema: { hide: true, response: { 200: Live, ...Errors } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true, response: { 200: Ready, ...Errors } } }, async (_request, reply) => {
    try {
      await withTimeout(database.ping(), 2000);
      return { status: 'ready' };
    } catch {
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send(errorBody('not_ready', 'Not ready: the database does not answer.'));
    }
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
    }),
  ]);
}
