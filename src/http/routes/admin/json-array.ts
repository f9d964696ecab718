import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidBodyError } from '../../../domain/errors.js';
import { nextTurn } from '../../../indexes/turns.js';
import { MAX_BULK_ROWS, tooManyRows } from './bulk.js';

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
  const parseWhole = app.getDefaultJsonParser('error', 'error');
  /** Fastify's parser answers at once (it is synchronous); its callback is read here. */
  const parse = (request: FastifyRequest, text: string): unknown => {
    let parsed: { error: Error | null; value?: unknown } | null = null;
    parseWhole(request, text, (error, value) => {
      parsed = { error, value };
    });
    if (parsed === null) throw new Error("Fastify's JSON parser did not answer at once");
    const { error, value } = parsed as { error: Error | null; value?: unknown };
    if (error) throw error;
    return value;
  };
  /** The 400 naming the first element of the body that does not parse on its own. */
  const badRow = (request: FastifyRequest, body: Buffer) => {
    const elements = new ArrayElements(body);
    while (elements.next()) {
      try {
        parse(request, body.toString('utf8', elements.start, elements.end));
      } catch {
        break;
      }
    }
    return new InvalidBodyError(`Row ${elements.count - 1} of the JSON array is not valid JSON.`);
  };

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer) => {
    if (body[skipSpace(body, 0)] !== OPEN_BRACKET) return parse(request, body.toString('utf8'));
    const rows: unknown[] = [];
    const parsePart = (start: number, end: number) => {
      let values: unknown[];
      try {
        values = parse(request, `[${body.toString('utf8', start, end)}]`) as unknown[];
      } catch {
        throw badRow(request, body);
      }
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const notAnArray = () => new InvalidBodyError('The request body is not valid JSON: the array is not closed.');

/**
 * The elements of a JSON array body one after another, found by the depth of brackets outside
 * strings: what is inside each range is left to the parser, which checks it. The structure around
 * them is checked here (a comma or the closing bracket after each, nothing but white space after
 * the array), so a body is accepted exactly when it is one valid JSON array. Nothing is allocated
 * per element: a body may hold a million.
 */
export class ArrayElements {
  /** The current element's bytes: `body[start, end)`, white space around it left out. */
  start = 0;
  end = 0;
  /** Elements read so far. */
  count = 0;
  private at: number;
  private closed = false;

  constructor(private readonly body: Uint8Array) {
    const open = skipSpace(body, 0);
    if (body[open] !== OPEN_BRACKET) throw notAnArray();
    this.at = skipSpace(body, open + 1);
    if (body[this.at] === CLOSE_BRACKET) this.close(this.at);
  }

  /** Moves to the next element; false once the array has closed. */
  next(): boolean {
    if (this.closed) return false;
    const { body } = this;
    const start = this.at;
    let depth = 0;
    let i = start;
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
    // An empty range (`[1,,2]`) is the parser's to refuse.
    this.start = start;
    this.end = end;
    this.count++;
    if (body[i] === CLOSE_BRACKET) this.close(i);
    else this.at = skipSpace(body, i + 1);
    return true;
  }

  private close(bracket: number): void {
    this.closed = true;
    if (skipSpace(this.body, bracket + 1) < this.body.length)
      throw new InvalidBodyError('The request body is not valid JSON: there is more after the array.');
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

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The first byte at or after `at` that is not JSON white space (a byte order mark at the start is skipped too). */
function skipSpace(body: Uint8Array, at: number): number {
  let i = at === 0 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : at;
  while (i < body.length && isSpace(body[i]!)) i++;
  return i;
}
