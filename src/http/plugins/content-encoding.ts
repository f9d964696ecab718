import type { FastifyInstance } from 'fastify';
import { UnsupportedMediaTypeError } from '../../domain/errors.js';

/**
 * Request bodies are read as sent: no route decodes a Content-Encoding (gzip, br …), so such a
 * body would be parsed as if it were not compressed (a gzipped JSON body "not valid JSON", a plain
 * one under a coding it does not use read as plain). No storefront compresses what it sends; a 415
 * says what to do (RFC 9110 §15.5.16, with the codings that are read in `Accept-Encoding`).
 */
export function registerRequestEncoding(app: FastifyInstance): void {
  // A callback hook: it runs for every request Fastify answers, and needs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding === undefined || coding === '' || coding === 'identity' || !hasBody(request.headers)) return done();
    void reply.header('accept-encoding', 'identity');
    done(
      new UnsupportedMediaTypeError(
        `Content-Encoding ${JSON.stringify(request.headers['content-encoding'])} is not read: ` +
          'send the request body uncompressed.',
      ),
    );
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}
