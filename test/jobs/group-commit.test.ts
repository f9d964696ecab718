import { describe, expect, it, vi } from 'vitest';
import { GroupCommitter } from '../../src/jobs/group-commit.js';

/** A writer that records batches and can be held open or made to fail. */
function recorder() {
  const batches: number[][] = [];
  const started: number[][] = [];
  let fail = false;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  return {
    batches,
    /** Batches the committer handed over, written or not yet. */
    started,
    failNext: () => {
      fail = true;
    },
    hold: () => {
      gate = new Promise((r) => {
        open = r;
      });
    },
    release: () => open(),
    write: async (batch: number[]) => {
      started.push(batch);
      await gate;
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      batches.push(batch);
    },
  };
}

describe('GroupCommitter', () => {
  it('answers each submitter only after the batch holding its item is written', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 100, maxDelayMs: 1 });
    let done = false;
    const pending = Promise.all([committer.submit(1), committer.submit(2)]).then(() => {
      done = true;
    });
    expect(done).toBe(false);
    await pending;
    expect(r.batches).toEqual([[1, 2]]);
  });

  it('batches what arrives during a write into the next commit', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 100, maxDelayMs: 1 });
    r.hold();
    const first = committer.submit(1);
    await vi.waitFor(() => expect(r.started).toEqual([[1]]), { timeout: 30_000 }); // the first batch is being written
    const rest = [2, 3, 4].map((n) => committer.submit(n));
    expect(committer.depth).toBe(3);
    r.release();
    await Promise.all([first, ...rest]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('splits at maxBatch', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 2, maxDelayMs: 50 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => committer.submit(n)));
    expect(r.batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(Math.max(...r.batches.map((b) => b.length))).toBe(2);
  });

  it('rejects every item of a failed batch and goes on with the next', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 100, maxDelayMs: 1 });
    r.failNext();
    const results = await Promise.allSettled([committer.submit(1), committer.submit(2)]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    await committer.submit(3);
    expect(r.batches).toEqual([[3]]);
  });

  it('writes what is buffered on close, then refuses new items', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 100, maxDelayMs: 10_000 });
    const pending = committer.submit(7);
    await committer.close();
    await pending;
    expect(r.batches).toEqual([[7]]);
    await expect(committer.submit(8)).rejects.toThrow('closed');
  });
});

describe('GroupCommitter without a delay', () => {
  it('commits everything submitted in one turn of the event loop as one batch, without a timer', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 100, maxDelayMs: 0 });
    const first = [1, 2, 3].map((n) => committer.submit(n));
    await Promise.all(first);
    const second = [4, 5].map((n) => committer.submit(n));
    await Promise.all(second);
    expect(r.batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('writes what is buffered on close without waiting for the next turn', async () => {
    const r = recorder();
    const committer = new GroupCommitter(r.write, { maxBatch: 100, maxDelayMs: 0 });
    const pending = committer.submit(9);
    await committer.close();
    await pending;
    expect(r.batches).toEqual([[9]]);
  });
});
