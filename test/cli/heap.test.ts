import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { applyHeapFlags } from '../../src/cli/heap.js';

describe('the heap flags a server sets as it starts', () => {
  it('sets the old generation growth of a small budget, and again once each worker thread runs', async () => {
    const before = process.listenerCount('worker');
    expect(applyHeapFlags(160)).toEqual(['--heap-growing-percent=50']);
    expect(process.listenerCount('worker')).toBe(before + 1);
    // A worker that starts and ends: the listener sets the flags again without an error.
    const worker = new Worker('0', { eval: true });
    await new Promise((resolve, reject) => {
      worker.once('exit', resolve);
      worker.once('error', reject);
    });
    expect(applyHeapFlags(4096)).toEqual([]); // a large budget keeps V8's own
    expect(process.listenerCount('worker')).toBe(before + 1);
  });
});
