import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import type { Readable } from 'node:stream';
import { InvalidBodyError } from '../../../domain/errors.js';
import { nextTurn } from '../../../indexes/turns.js';
import { splitLines } from '../../../services/upstream/bounded-body.js';

/** One NDJSON line is one document (a product, a collection, an event): 1 MB is far above any of them. */
export const NDJSON_LINE_LIMIT = 1024 * 1024;

/** An NDJSON line over the line cap: the body is refused as it arrives, before the rest is read. */
const LINE_TOO_LARGE = `A line of the NDJSON body is larger than ${NDJSON_LINE_LIMIT / 1024 / 1024} MB`;
const lineTooLarge = () => Object.assign(new Error(LINE_TOO_LARGE), { statusCode: 413 });

/**
 * Bulk admin bodies may be NDJSON (one document per line) as well as a JSON array. The body is read
 * as a stream, line by line: only the current line is held besides the documents parsed so far, and
 * the route's byte limit (REBOUND_MAX_BODY_MB) and the line cap end the read as soon as they are passed.
 */
export function registerNdjson(app: FastifyInstance): void {
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
      try {
        rows.push(JSON.parse(line));
      } catch {
        throw new InvalidBodyError(`Line ${number} of the NDJSON body is not valid JSON.`);
      }
    }
    return rows;
  });
}

/** Bytes of a JSON array parsed between two turns of the event loop: about a millisecond of JSON.parse. */
const ARRAY_BYTES_PER_TURN = 256 * 1024;

/**
 * Admin JSON bodies that are arrays (the bulk imports, up to REBOUND_MAX_BODY_MB) are parsed an
 * element at a time, with a turn of the event loop after every 256 KB: parsed in one call, a 32 MB
 * import held every shop of the process for about 100-300 ms. Each element goes through Fastify's own
 * parser (prototype keys refused as before), so the value is the same as the whole body's. A body
 * that is not an array is parsed whole, as before.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseWhole = app.getDefaultJsonParser('error', 'error');
  const parse = (request: FastifyRequest, text: string) =>
    new Promise<unknown>((resolve, reject) =>
      parseWhole(request, text, (error, value) => (error ? reject(error) : resolve(value))),
    );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer) => {
    if (body[skipSpace(body, 0)] !== OPEN_BRACKET) return parse(request, body.toString('utf8'));
    const rows: unknown[] = [];
    let sinceTurn = 0;
    for (const [start, end] of arrayElements(body)) {
      if (sinceTurn >= ARRAY_BYTES_PER_TURN) {
        await nextTurn();
        sinceTurn = 0;
      }
      sinceTurn += end - start;
      rows.push(
        await parse(request, body.toString('utf8', start, end)).catch(() => {
          throw new InvalidBodyError(`Row ${rows.length} of the JSON array is not valid JSON.`);
        }),
      );
    }
    return rows;
  });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const notAnArray = () => new InvalidBodyError('The request body is not valid JSON: the array is not closed.');

/**
 * Where each element of a JSON array body lies, found by the depth of brackets outside strings:
 * what is inside each range is left to the parser, which checks it. The structure around them is
 * checked here (a comma or the closing bracket after each, nothing but white space after the
 * array), so a body is accepted exactly when it is one valid JSON array.
 */
export function* arrayElements(body: Uint8Array): Generator<[number, number]> {
  let i = skipSpace(body, 0);
  if (body[i] !== OPEN_BRACKET) throw notAnArray();
  i = skipSpace(body, i + 1);
  if (body[i] === CLOSE_BRACKET) return atEnd(body, i + 1);
  for (;;) {
    const start = i;
    let depth = 0;
    for (; i < body.length; i++) {
      const byte = body[i];
      if (byte === QUOTE) i = stringEnd(body, i);
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === COMMA && depth === 0) break;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === 0) break;
        depth--;
      }
    }
    if (i >= body.length || body[i] === CLOSE_BRACE) throw notAnArray();
    let end = i;
    while (end > start && isSpace(body[end - 1]!)) end--;
    yield [start, end]; // an empty range (`[1,,2]`) is refused by the parser
    if (body[i] === CLOSE_BRACKET) return atEnd(body, i + 1);
    i = skipSpace(body, i + 1);
  }
}

/** The closing quote of the string opening at `at`: the first quote not escaped by an odd run of backslashes. */
function stringEnd(body: Uint8Array, at: number): number {
  for (let i = body.indexOf(QUOTE, at + 1); i !== -1; i = body.indexOf(QUOTE, i + 1)) {
    let escapes = 0;
    while (body[i - 1 - escapes] === BACKSLASH) escapes++;
    if (escapes % 2 === 0) return i;
  }
  return body.length;
}

function atEnd(body: Uint8Array, at: number): void {
  if (skipSpace(body, at) < body.length)
    throw new InvalidBodyError('The request body is not valid JSON: there is more after the array.');
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The first byte at or after `at` that is not JSON white space (a byte order mark at the start is skipped too). */
function skipSpace(body: Uint8Array, at: number): number {
  let i = at === 0 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : at;
  while (i < body.length && isSpace(body[i]!)) i++;
  return i;
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
