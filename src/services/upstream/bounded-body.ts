import { UpstreamError } from './errors.js';

/** A readable answer body: iterated chunk by chunk and destroyed when the reader stops early. */
export interface BodySource extends AsyncIterable<Buffer | string> {
  destroy(error?: Error): unknown;
}

type Chunks = AsyncIterable<Buffer>;

const tooLarge = (what: string, cap: number) =>
  new UpstreamError('too_large', `${what} is larger than ${cap} bytes`, true, true);

/**
 * Drops a body that will not be read (an export file's 403, an answer too large to read): its
 * connection is closed, and the abort error closing it emits has a listener. Without one, the
 * error of a body destroyed before it was read was uncaught: the whole process exited.
 */
export function discard(body: BodySource): void {
  (body as Partial<Pick<NodeJS.EventEmitter, 'on'>>).on?.('error', () => undefined);
  body.destroy();
}

/** The whole body, read as a stream; past `maxBytes` the connection is dropped at once and `too_large` thrown. */
export async function readCapped(body: BodySource, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) {
      body.destroy();
      throw tooLarge('the answer', maxBytes);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/** Every chunk of the body, while their total stays within `maxBytes`. */
export async function* cappedChunks(body: BodySource, maxBytes: number): AsyncGenerator<Buffer> {
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) throw tooLarge('the answer', maxBytes);
      yield bytes;
    }
  } finally {
    body.destroy();
  }
}

/**
 * The body's non-empty lines (LF or CRLF), decoded as UTF-8 once a line is whole, so a character
 * split across chunks stays intact. A line longer than `maxLineBytes` ends the read with `too_large`;
 * at most one line is held in memory.
 */
export async function* cappedLines(chunks: AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<string> {
  const tooLong = () => tooLarge('a line of the answer', maxLineBytes);
  for await (const line of splitLines(chunks, maxLineBytes, tooLong)) if (line !== '') yield line;
}

/**
 * Every line of a byte stream (LF or CRLF, empty ones too, so their numbers are the sender's), each
 * decoded once whole; a line longer than `cap` bytes throws `over()`. One line is held at most.
 */
export async function* splitLines(chunks: Chunks, cap: number, over: () => Error): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingSize = 0;
  const take = (tail: Buffer): string => {
    const line = (pending.length === 0 ? tail : Buffer.concat([...pending, tail])).toString('utf8');
    pending = [];
    pendingSize = 0;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      if (pendingSize + end - start > cap) throw over();
      const line = take(chunk.subarray(start, end));
      start = end + 1;
      yield line;
    }
    pendingSize += chunk.length - start;
    if (pendingSize > cap) throw over();
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  // A body ending in a newline has no line after it.
  if (pendingSize > 0) yield take(Buffer.alloc(0));
}
