import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidBodyError } from '../../../domain/errors.js';
import { mayHoldUnstorable, refuseUnstorable } from '../../../domain/inputs/nul.js';
import { nextTurn } from '../../../indexes/turns.js';
import { MAX_BULK_ROWS, tooLarge, tooManyRows } from './bulk.js';
import { fastifyJsonParse } from './json-parse.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from '../../../domain/inputs/json-codes.js';

/** A JSON array is parsed in parts of about 256 KB (about a millisecond of parsing), a turn between parts. */
const ARRAY_BYTES_PER_TURN = 256 * 1024;

/**
 * Admin JSON bodies that are arrays (the bulk imports, up to REBOUND_MAX_BODY_MB) are parsed in
 * parts: parsed in one call, a 32 MB import held every shop of the process for about 100-300 ms. A
 * part is a run of whole elements, parsed as an array of its own by Fastify's parser (prototype
 * keys refused as before), so the rows are the same as the whole body's and cost about as much to
 * parse. A body that is not an array is parsed whole, as before.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parse = fastifyJsonParse(app);
  /**
   * The 400 naming the first row of the part at `at` (rows before it: `before`) that does not parse
   * as an array of its own: the rows before the part parsed, so this reads about 256 KB.
   */
  const badRow = (request: FastifyRequest, body: Buffer, at: number, before: number) => {
    const elements = new ArrayElements(body, { at, count: before });
    let row = before;
    while (elements.next()) {
      row = elements.count - 1;
      try {
        parse(request, `[${body.toString('utf8', elements.start, elements.end)}]`);
      } catch {
        break;
      }
    }
    return new InvalidBodyError(`Row ${row} of the JSON array is not valid JSON.`);
  };

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer) => {
    const first = skipSpace(body, 0, Math.min(body.length, MAX_ROW_BYTES));
    if (first === MAX_ROW_BYTES) throw rowTooLarge();
    // No body under a JSON type (clients that set it on every request, a DELETE too) is no body.
    if (first === body.length) return undefined;
    if (body[first] !== OPEN_BRACKET) {
      const text = body.toString('utf8');
      const value = parse(request, text);
      if (mayHoldUnstorable(text)) refuseUnstorable(value, 'request body');
      return value;
    }
    const rows: unknown[] = [];
    const parsePart = (start: number, end: number) => {
      const text = `[${body.toString('utf8', start, end)}]`;
      let values: unknown[];
      try {
        values = parse(request, text) as unknown[];
      } catch {
        throw badRow(request, body, start, rows.length);
      }
      if (mayHoldUnstorable(text))
        for (let i = 0; i < values.length; i++) refuseUnstorable(values[i], 'JSON array', rows.length + i);
      for (const value of values) rows.push(value);
    };
    const elements = new ArrayElements(body);
    let partStart = -1;
    while (elements.next()) {
      if (elements.count > MAX_BULK_ROWS) throw tooManyRows();
      if (partStart < 0) partStart = elements.start;
      if (elements.end - partStart < ARRAY_BYTES_PER_TURN) continue;
      parsePart(partStart, elements.end);
      partStart = -1;
      await nextTurn();
    }
    if (partStart >= 0) parsePart(partStart, elements.end);
    return rows;
  });
}

/** Bytes one row may take, with the white space before it: far above any document, and a bound on one turn's scan. */
export const MAX_ROW_BYTES = 8 * 1024 * 1024;

const notAnArray = () => new InvalidBodyError('The request body is not valid JSON: the array is not closed.');
const rowTooLarge = () =>
  tooLarge(`A row of the JSON array, with the white space before it, is larger than ${MAX_ROW_BYTES / 2 ** 20} MB`);

/**
 * The elements of a JSON array body one after another, found by the depth of brackets outside
 * strings: what is inside each range is left to the parser, which checks it. The structure around
 * them is checked here (a comma or the closing bracket after each, nothing but white space after
 * the array), so a body is accepted exactly when it is one valid JSON array. Nothing is allocated
 * per element (a body may hold a million), and no element is looked for past MAX_ROW_BYTES.
 */
export class ArrayElements {
  /** The current element's bytes: `body[start, end)`, white space around it left out. */
  start = 0;
  end = 0;
  /** Elements read so far. */
  count = 0;
  private at: number;
  private closed = false;

  /** From the body's start, or from an element's start already found (`count` elements before it). */
  constructor(
    private readonly body: Uint8Array,
    resume?: { at: number; count: number },
  ) {
    if (resume) {
      this.at = resume.at;
      this.count = resume.count;
      return;
    }
    const limit = this.limitFrom(0);
    const open = skipSpace(body, 0, limit);
    if (open === limit && limit < body.length) throw rowTooLarge();
    if (body[open] !== OPEN_BRACKET) throw notAnArray();
    this.at = open + 1;
    const first = skipSpace(body, this.at, this.limitFrom(this.at));
    if (body[first] === CLOSE_BRACKET) this.close(first);
  }

  /** Moves to the next element; false once the array has closed. */
  next(): boolean {
    if (this.closed) return false;
    const { body } = this;
    const limit = this.limitFrom(this.at);
    const start = skipSpace(body, this.at, limit);
    let depth = 0;
    let i = start;
    for (; i < limit; i++) {
      const byte = body[i];
      if (byte === QUOTE) i = stringEnd(body, i, limit);
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === COMMA && depth === 0) break;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === 0) break;
        depth--;
      }
    }
    if (i >= limit) throw limit < body.length ? rowTooLarge() : notAnArray();
    if (body[i] === CLOSE_BRACE) throw notAnArray();
    let end = i;
    while (end > start && isSpace(body[end - 1]!)) end--;
    // An empty range (`[1,,2]`) is the parser's to refuse.
    this.start = start;
    this.end = end;
    this.count++;
    if (body[i] === CLOSE_BRACKET) this.close(i);
    else this.at = i + 1;
    return true;
  }

  private limitFrom(at: number): number {
    return Math.min(this.body.length, at + MAX_ROW_BYTES);
  }

  private close(bracket: number): void {
    this.closed = true;
    const limit = this.limitFrom(bracket + 1);
    const after = skipSpace(this.body, bracket + 1, limit);
    if (after === limit && limit < this.body.length) throw rowTooLarge();
    if (after < this.body.length)
      throw new InvalidBodyError('The request body is not valid JSON: there is more after the array.');
  }
}

/**
 * The closing quote of the string opening at `at`, or `limit`. Byte by byte: a search for quotes
 * then a count of the backslashes before each took 250 ms for a string of 15 million escaped quotes.
 */
function stringEnd(body: Uint8Array, at: number, limit: number): number {
  for (let i = at + 1; i < limit; i++) {
    const byte = body[i];
    if (byte === BACKSLASH) i++;
    else if (byte === QUOTE) return i;
  }
  return limit;
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The first byte at or after `at`, before `limit`, that is not JSON white space (nor the body's byte order mark). */
function skipSpace(body: Uint8Array, at: number, limit = body.length): number {
  let i = at === 0 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : at;
  while (i < limit && isSpace(body[i]!)) i++;
  return i;
}
