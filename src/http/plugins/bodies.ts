import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, InvalidBodyError, InvalidInputError } from '../../domain/errors.js';
import { commaListOf } from '../../domain/params/read.js';

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
  const jsonOrNothing = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (e: Error | null, b?: unknown) => void,
  ) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonOrNothing);
  // A structured JSON type (RFC 6839: `application/vnd.api+json`) claims JSON as much: read as JSON.
  app.addContentTypeParser(/^application\/[\w.!#$&^-]+\+json(\s*;|$)/i, { parseAs: 'string' }, jsonOrNothing);
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) =>
    done(null, jsonObjectOrNothing(body as string)),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  await app.register(formbody);
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart()) request.body = await multipartFields(request);
    if (request.routeOptions.config.paramsInBody) mergeBodyUnderQuery(request);
  });
}

/**
 * A multipart body's fields by name (a name given twice, a list; a file, its bytes). A field cut at
 * the size limit is refused, naming it, rather than read shortened; a body that is not multipart
 * (no boundary, cut short, a malformed part) is a 400, not a failure of the server.
 */
async function multipartFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = Object.create(null);
  try {
    for await (const part of request.parts()) {
      const value = part.type === 'file' ? await part.toBuffer() : part.value;
      if (part.type === 'field' && (part.valueTruncated || part.fieldnameTruncated))
        throw new InvalidInputError(
          part.fieldname,
          part.fieldnameTruncated
            ? 'A multipart field name is longer than 100 bytes.'
            : `The multipart field ${part.fieldname} is longer than ${MULTIPART_LIMITS.fieldSize} bytes.`,
        );
      const given = fields[part.fieldname];
      fields[part.fieldname] = given === undefined ? value : Array.isArray(given) ? [...given, value] : [given, value];
    }
  } catch (error) {
    // The plugin's own refusals (limits, a __proto__ field) carry their status; the parser's do not.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    throw new InvalidBodyError(`The multipart body could not be read: ${(error as Error).message}.`);
  }
  return fields;
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

/**
 * Body fields join the parameters; the query string wins where both name one. A JSON body that is not an
 * object (`[…]`, `"…"`, `3`) names no parameter: it is refused rather than answered as if it were absent,
 * which would hide the caller's mistake behind the defaults. `null` is read as no body.
 */
function mergeBodyUnderQuery(request: FastifyRequest): void {
  const body = request.body;
  // A form's repeated field is a repeat (refused, as in a query string); a JSON list is one value.
  const json = !/^\s*(application\/x-www-form-urlencoded|multipart\/)/i.test(request.headers['content-type'] ?? '');
  if (json && body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body)))
    throw new InvalidBodyError('The body must be a JSON object of parameters, such as {"limit": 5}.');
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return;
  const merged: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(body))
    if (name !== '__proto__') merged[name] = json ? commaListOf(value) : value;
  Object.assign(merged, request.query as Record<string, unknown>);
  request.query = merged;
}
