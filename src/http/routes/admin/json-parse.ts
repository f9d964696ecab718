import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Parses one JSON text as Fastify parses a body; throws what it refuses. */
export type JsonParse = (request: FastifyRequest, text: string) => unknown;

/**
 * Fastify's own JSON parser, prototype keys (`__proto__`, `constructor.prototype`) refused as in
 * any whole body: what every admin body parser (a JSON array's parts, an NDJSON line) parses with,
 * so a document refused in one body is refused in every other.
 */
export function fastifyJsonParse(app: FastifyInstance): JsonParse {
  const parseWhole = app.getDefaultJsonParser('error', 'error');
  /** Fastify's parser answers at once (it is synchronous); its callback is read here. */
  return (request, text) => {
    let parsed: { error: Error | null; value?: unknown } | null = null;
    parseWhole(request, text, (error, value) => {
      parsed = { error, value };
    });
    if (parsed === null) throw new Error("Fastify's JSON parser did not answer at once");
    const { error, value } = parsed as { error: Error | null; value?: unknown };
    if (error) throw error;
    return value;
  };
}
