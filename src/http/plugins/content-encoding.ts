import type { FastifyInstance } from 'fastify';
import { UnsupportedMediaTypeError } from '../../domain/errors.js';

/**
 * Request bodies are read as sent: a body with a Content-Encoding (gzip, br …) was parsed as
 * if it were not compressed, a gzipped JSON body answered "not valid JSON" and one that
 * only claimed an encoding was read as plain. No storefront sends one; a 415 says what to do
 * (RFC 9110 §15.5.16, with the codings that are read in `Accept-Encoding`).
 */
export function registerRequestEncoding(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const coding = request.headers['content-encoding'];
    if (coding === undefined || !hasBody(request.headers)) return;
    if (coding.trim().toLowerCase() === 'identity' || coding.trim() === '') return;
    void reply.header('accept-encoding', 'identity');
    throw new UnsupportedMediaTypeError(
      `Content-Encoding ${JSON.stringify(coding)} is not read: send the request body uncompressed.`,
    );
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}
