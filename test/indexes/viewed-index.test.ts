import { describe, expect, it } from 'vitest';
import { ViewedIndex } from '../../src/indexes/viewed-index.js';
import type { EventStore } from '../../src/store/kysely/events.js';

/** What the store answers for each visitor: 10 long handles (the read is counted). */
function viewsStore() {
  const reads: string[] = [];
  const store = {
    async latestViewedHandles(_shopId: number, filter: { uuid?: string }) {
      reads.push(filter.uuid ?? '');
      return Array.from({ length: 10 }, (_, i) => `${filter.uuid}-${'h'.repeat(200)}-${i}`);
    },
  } as unknown as EventStore;
  return { store, reads };
}

describe('the recently-viewed lists a node keeps', () => {
  it('stay within their bytes, however many visitors ask, keeping the latest', async () => {
    const { store, reads } = viewsStore();
    const index = new ViewedIndex(store, { maxBytes: 50_000, ttlMs: 60_000 });
    for (let v = 0; v < 200; v++) await index.handles(1, { uuid: `visitor-${v}` });
    expect(index.bytes).toBeGreaterThan(40_000);
    expect(index.bytes).toBeLessThanOrEqual(50_000);
    // The latest visitor's list is kept (no second read); the first one's was let go.
    await index.handles(1, { uuid: 'visitor-199' });
    await index.handles(1, { uuid: 'visitor-0' });
    expect(reads.filter((r) => r === 'visitor-199')).toHaveLength(1);
    expect(reads.filter((r) => r === 'visitor-0')).toHaveLength(2);
  });
});
