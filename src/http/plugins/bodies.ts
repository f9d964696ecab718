import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its parameters from the query string, with form or JSON body fields under them. */
    paramsInBody?: boolean;
  }
}

/** Multipart bodies carry a few short fields (a beacon's FormData); anything larger is refused. */
const MULTIPART_LIMITS = { fields: 100, fieldSize: 8 * 1024, files: 5, fileSize: 64 * 1024, parts: 105 };

/**
 * Bodies as storefront code sends them (docs/api.md, "Request bodies"): none, empty JSON,
 * JSON, form-encoded (`$.post`), `text/plain` (`navigator.sendBeacon`) or multipart. Only a body
 * that claims JSON and is not JSON is a 400; a body of any other type is read as no body.
 */
export async function registerStorefrontBodies(app: FastifyInstance): Promise<void> {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) =>
    done(null, jsonObjectOrNothing(body as string)),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  await app.register(formbody);
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: MULTIPART_LIMITS });
  // After multipart's own hook: its fields are in the body by now.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.paramsInBody) mergeBodyUnderQuery(request);
  });
}

/** `text/plain` is often JSON sent by a beacon; other text carries no parameters. */
function jsonObjectOrNothing(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Body fields join the parameters; the query string wins where both name one. */
function mergeBodyUnderQuery(request: FastifyRequest): void {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return;
  const merged: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(body)) if (name !== '__proto__') merged[name] = value;
  Object.assign(merged, request.query as Record<string, unknown>);
  request.query = merged;
}
