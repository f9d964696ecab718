import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import type { Readable } from 'node:stream';
import { InvalidBodyError } from '../../../domain/errors.js';
import { mayHoldUnstorable, refuseUnstorable } from '../../../domain/inputs/nul.js';
import { splitLines } from '../../../services/upstream/bounded-body.js';
import { fastifyJsonParse } from './json-parse.js';

/** One NDJSON line is one document (a product, a collection, an event): 1 MB is far above any of them. */
export const NDJSON_LINE_LIMIT = 1024 * 1024;

/** An NDJSON line over the line cap: the body is refused as it arrives, before the rest is read. */
const LINE_TOO_LARGE = `A line of the NDJSON body is larger than ${NDJSON_LINE_LIMIT / 1024 / 1024} MB`;
const lineTooLarge = () => tooLarge(LINE_TOO_LARGE);

/** A bulk body's 413 (`payload_too_large`), raised as the part past a bound is read. */
export const tooLarge = (message: string) => Object.assign(new Error(message), { statusCode: 413 });

/**
 * Rows one bulk body may hold: far above any import (a 32 MB body holds about 30,000 products or
 * 500,000 inventory levels), and a bound on the memory a body of tiny rows takes once parsed
 * (32 MB of `0,` are 16 million rows, 130 MB of array).
 */
export const MAX_BULK_ROWS = 1_000_000;

/** The 413 of a body past MAX_BULK_ROWS, raised as the row past it is read. */
export const tooManyRows = () =>
  tooLarge(`A bulk body holds at most ${MAX_BULK_ROWS.toLocaleString('en')} rows: send the rest in another request`);

/**
 * Bulk admin bodies may be NDJSON (one document per line) as well as a JSON array. The body is read
 * as a stream, line by line: only the current line is held besides the documents parsed so far, and
 * the route's byte limit (REBOUND_MAX_BODY_MB) and the line cap end the read as soon as they are passed.
 */
export function registerNdjson(app: FastifyInstance): void {
  const parse = fastifyJsonParse(app);
  app.addContentTypeParser('application/x-ndjson', async (request: FastifyRequest, payload: Readable) => {
    const limit = request.routeOptions.bodyLimit ?? BULK_BODY_LIMIT;
    if (Number(request.headers['content-length'] ?? 0) > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    const rows: unknown[] = [];
    let number = 0;
    // A refused body is not destroyed (that would reset the connection before the 413 is sent).
    const chunks = payload.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
    for await (const raw of splitLines(withinLimit(chunks, limit), NDJSON_LINE_LIMIT, lineTooLarge)) {
      number++;
      const line = raw.trim();
      if (line === '') continue;
      if (rows.length === MAX_BULK_ROWS) throw tooManyRows();
      let row: unknown;
      try {
        row = parse(request, line);
      } catch {
        // Not JSON, or a prototype key (`__proto__`) Fastify's parser refuses in any body.
        throw new InvalidBodyError(`Line ${number} of the NDJSON body is not valid JSON.`);
      }
      if (mayHoldUnstorable(line)) refuseUnstorable(row, 'NDJSON body', rows.length);
      rows.push(row);
    }
    return rows;
  });
}

/** The body's chunks while their total stays within `limit` bytes; past it, a 413. */
async function* withinLimit(payload: AsyncIterable<Buffer>, limit: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of payload) {
    size += chunk.length;
    if (size > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    yield chunk;
  }
}

/** Catalog imports can be large: 10,000 products are tens of megabytes. */
export const BULK_BODY_LIMIT = 256 * 1024 * 1024;
