import { describe, expect, it } from 'vitest';
import { mapInTurns, TURN_MS } from '../../src/indexes/turns.js';

/** The items `mapInTurns` handled between two turns of the event loop, each run in order. */
async function runsOf(items: number[], costMs: number, size: number): Promise<number[][]> {
  let clock = 0;
  const log: (number | 'turn')[] = [];
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    log.push('turn');
    setImmediate(tick);
  };
  setImmediate(tick);
  const out = await mapInTurns(
    items,
    (n) => {
      clock += costMs;
      log.push(n);
      return n * 2;
    },
    size,
    () => clock,
  );
  ticking = false;
  expect(out).toEqual(items.map((n) => n * 2));
  const runs: number[][] = [[]];
  for (const entry of log) {
    if (entry === 'turn') runs.push([]);
    else runs.at(-1)!.push(entry);
  }
  return runs.filter((run) => run.length > 0);
}

describe('mapInTurns', () => {
  it('takes a turn after `size` items of cheap work', async () => {
    expect(await runsOf([1, 2, 3, 4, 5, 6, 7], 0, 3)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('takes a turn once the work passes TURN_MS, before `size` items (rows at the platform bounds)', async () => {
    const cost = TURN_MS / 2.5; // three items pass TURN_MS
    expect(await runsOf([1, 2, 3, 4, 5, 6, 7], cost, 1000)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('handles an item dearer than TURN_MS alone in its turn', async () => {
    expect(await runsOf([1, 2, 3], TURN_MS * 3, 1000)).toEqual([[1], [2], [3]]);
  });
});
