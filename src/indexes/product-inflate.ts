import { constants, createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { PRODUCT_DICTIONARY } from './product-dictionary.js';

/** What a deflated product is read from: its stored bytes and the length they inflate to. */
export interface DeflatedProduct {
  readonly storedBytes: Buffer;
  readonly inflatedLength: number;
}

const DICTIONARY = { dictionary: PRODUCT_DICTIONARY };

/** A product's bytes deflated against the dictionary (when it is written, so loads only copy them). */
export function deflateProduct(bytes: Uint8Array): Buffer {
  return deflateRawSync(bytes, DICTIONARY);
}

const CHUNK_SLACK = 64;

/** Bytes of inflated products kept for their next reads (about a thousand products). */
export const INFLATED_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * The products read most recently, inflated: an answer the cache does not hold (a new product
 * page, `bust_cache`) mostly lists the shop's popular products again, and inflating ten of them
 * took about half the time of such an answer. Bounded by bytes, least recently read out first;
 * a product of an evicted shop leaves as newer ones come in.
 */
export class RecentlyInflated<Key extends DeflatedProduct = DeflatedProduct> {
  private readonly entries = new Map<Key, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(json: Key): Buffer {
    const kept = this.entries.get(json);
    if (kept) {
      this.entries.delete(json);
      this.entries.set(json, kept);
      return kept;
    }
    const inflated = inflateProduct(json.storedBytes, json.inflatedLength);
    this.entries.set(json, inflated);
    this.bytes += inflated.length;
    for (const [oldest, buffer] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= buffer.length;
    }
    return inflated;
  }
}

interface ZlibInternals {
  _handle?: {
    writeSync(
      flush: number,
      input: Buffer,
      inOff: number,
      inLen: number,
      out: Buffer,
      outOff: number,
      outLen: number,
    ): void;
    reset(): void;
  };
  _writeState?: Uint32Array;
}

/** One inflate stream for every product, reset between them (made on first use, again after a failure). */
let inflater: ZlibInternals | null = null;
/**
 * Where it writes: a byte longer than the product, so a stream that does not end there is seen.
 * Products larger than SCRATCH_MAX take the public call: one cannot leave its size held for good.
 */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
const SCRATCH_MAX = 512 * 1024;

/**
 * A product's bytes inflated by one zlib stream reset between products, into a buffer of their
 * exact length (known from the offsets). `inflateRawSync` makes a stream per call, sets its
 * dictionary and inflates into a fresh 16 KB chunk: about twice the time, and an uncached answer
 * inflates ten products. The stream's synchronous handle is Node's own interface; when it is
 * missing, or the product does not end exactly at its length, the public call answers (and
 * reports a damaged product as it always did).
 */
export function inflateProduct(stored: Buffer, length: number): Buffer {
  try {
    inflater ??= createInflateRaw(DICTIONARY).on('error', () => undefined) as ZlibInternals;
    const { _handle: handle, _writeState: state } = inflater;
    if (handle && state && length < SCRATCH_MAX) {
      if (scratch.length <= length) scratch = Buffer.allocUnsafeSlow(length * 2);
      // A damaged stream closes the handle without writing the state: what an earlier product left there
      // (the same length, say) must not pass for this one's.
      state[0] = scratch.length;
      state[1] = stored.length;
      handle.writeSync(constants.Z_FINISH, stored, 0, stored.length, scratch, 0, scratch.length);
      if (inflater._handle !== handle) {
        // Closed by the error: the next product gets a stream of its own rather than the public call for good.
        inflater = null;
        return inflateBySize(stored, length);
      }
      const written = scratch.length - state[0]!;
      const consumed = state[1] === 0;
      handle.reset();
      if (consumed && written === length) return ownCopy(scratch, length);
    }
  } catch {
    inflater = null;
  }
  return inflateBySize(stored, length);
}

function ownCopy(from: Buffer, length: number): Buffer {
  const out = Buffer.allocUnsafeSlow(length);
  from.copy(out, 0, 0, length);
  return out;
}

/**
 * A product's bytes inflated into a buffer of about their size. Left to its default, zlib writes
 * into a 16 KB chunk of memory outside the heap, and the copy kept made that chunk garbage on every
 * read: tens of MB a second under a high rate of loads, which the process's resident memory
 * carried until the next collection. (A chunk of exactly the size would take a second one to see
 * the end of the stream, hence the 64 bytes more.)
 */
function inflateBySize(stored: Buffer, length: number): Buffer {
  const output = inflateRawSync(stored, { ...DICTIONARY, chunkSize: Math.max(64, length + CHUNK_SLACK) });
  if (output.buffer.byteLength <= output.length + CHUNK_SLACK) return output;
  // Under 4 KB, Node takes the chunk from its shared 8 KB pool: kept, a view would keep the whole slab alive.
  return ownCopy(output, output.length);
}
