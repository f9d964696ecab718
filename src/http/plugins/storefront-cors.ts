import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the CORS hook on a storefront preflight it answers (the OPTIONS route only exists for it). */
    corsPreflightEnabled: boolean;
  }
}

/**
 * The routes a storefront page calls from the browser, from any origin (docs/operations.md,
 * "Security model"). Nothing else answers cross-origin: not billing (private key), admin or webhooks.
 * Anchored at the start and free of `?`, so testing a whole URL tests its path.
 */
const STOREFRONT_PATHS = /^\/api\/v[12]\/(products|custom|analytics|widgets)\//;

/** The preflight answer's headers: any origin, the methods and headers storefront code uses, cached a day. */
const PREFLIGHT = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, X-Api-Key, X-Rebuy-User-Token',
  'access-control-max-age': '86400',
};

/** `Vary: Origin` on every answer of the scope: whether CORS headers come depends on the request. */
function varyOnOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined || vary === '') void reply.header('vary', 'Origin');
  else if (
    vary !== '*' &&
    !String(vary)
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes('origin')
  )
    void reply.header('vary', `${vary}, Origin`);
}

/**
 * CORS on the storefront routes of this scope only, with the headers @fastify/cors sent for them,
 * decided by one anchored test per request instead of options rebuilt for every request.
 * A preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered here, before
 * any key check; one without them is a 400 in the error shape.
 */
export function registerStorefrontCors(app: FastifyInstance): void {
  if (!app.hasRequestDecorator('corsPreflightEnabled')) app.decorateRequest('corsPreflightEnabled', false);
  app.addHook('onRequest', (request, reply, done) => {
    varyOnOrigin(reply);
    if (!STOREFRONT_PATHS.test(request.url)) return done();
    void reply.header('access-control-allow-origin', '*');
    if (request.raw.method !== 'OPTIONS') return done();
    if (!request.headers.origin || !request.headers['access-control-request-method']) {
      void reply
        .status(400)
        .send(errorBody('bad_request', 'A preflight needs the Origin and Access-Control-Request-Method headers.'));
      return;
    }
    request.corsPreflightEnabled = true;
    void reply.headers(PREFLIGHT).code(204).header('content-length', '0').send();
  });
  // The preflight route: a preflight the hook did not answer (not a storefront path) is a 404.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    if (!request.corsPreflightEnabled) return reply.callNotFound();
    return reply.send();
  });
}
