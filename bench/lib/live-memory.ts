/**
 * Live memory of this process, for the benchmarks that weigh what a part of the read model keeps.
 * Needs `--expose-gc`.
 *
 * A full collection frees the heap at once, but the buffers of the typed arrays it found dead are
 * released afterwards, on a thread of their own: read straight after `gc()`, `external` still
 * counts them. A shop's load frees its snapshot's copy that way, so a figure read too early put
 * about 150 KB of a 150-product shop's garbage in its live bytes. Hence the collections repeated,
 * with a pause between them, until the buffers' figure stays put.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Pause for the sweeping thread between two reads, and how many reads at most. */
const SETTLE_MS = 25;
const MAX_READS = 20;

export interface LiveMemory {
  /** V8 heap in use. */
  heap: number;
  /** Buffers and typed arrays' memory outside the heap (`external`, which counts them). */
  external: number;
}

/** `collect`: a full collection (the global `gc` of `--expose-gc` unless given). */
export async function liveMemory(collect = (globalThis as { gc?: () => void }).gc): Promise<LiveMemory> {
  if (!collect) throw new Error('run with node --expose-gc');
  let last = -1;
  for (let read = 0; read < MAX_READS; read++) {
    collect();
    collect();
    await sleep(SETTLE_MS);
    const { heapUsed, external } = process.memoryUsage();
    if (external === last) return { heap: heapUsed, external };
    last = external;
  }
  const { heapUsed, external } = process.memoryUsage();
  return { heap: heapUsed, external };
}

/** Heap and buffers together. */
export async function liveBytes(collect?: () => void): Promise<number> {
  const { heap, external } = await liveMemory(collect);
  return heap + external;
}
