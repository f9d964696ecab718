import type { FastifyInstance } from 'fastify';
import { InvalidBodyError } from '../../../domain/errors.js';

/** Bulk admin bodies may be NDJSON (one document per line) as well as a JSON array. */
export function registerNdjson(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_request, body, done) => {
    const rows: unknown[] = [];
    const lines = (body as string).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === '') continue;
      try {
        rows.push(JSON.parse(line));
      } catch {
        done(new InvalidBodyError(`Line ${i + 1} of the NDJSON body is not valid JSON.`), undefined);
        return;
      }
    }
    done(null, rows);
  });
}

/** Catalog imports can be large: 10,000 products are tens of megabytes. */
export const BULK_BODY_LIMIT = 256 * 1024 * 1024;
