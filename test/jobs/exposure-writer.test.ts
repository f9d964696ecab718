import { describe, expect, it } from 'vitest';
import { ExposureWriter } from '../../src/jobs/exposure-writer.js';
import type { Exposure } from '../../src/store/kysely/experiments.js';

const exposure = (shop: number, visitor: string): Exposure => ({
  shop_id: shop,
  experiment_id: 1,
  arm: 0,
  visitor,
  created_at: 0,
});

/** A writer into an array, whose writes wait until released when `hold` is set. */
function writer(options: { failFirst?: boolean } = {}) {
  const stored: Exposure[] = [];
  let release: (() => void) | null = null;
  let hold = false;
  let fail = options.failFirst ?? false;
  const exposures = new ExposureWriter(
    async (rows) => {
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (fail) {
        fail = false;
        throw new Error('down');
      }
      stored.push(...rows);
      return [];
    },
    { flushMs: 60_000, maxBatch: 1000, maxPending: 1000, remember: 1000 },
  );
  return {
    exposures,
    stored,
    holdWrites: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

describe('ExposureWriter.forget (an erasure)', () => {
  it("drops the shop's forgotten visitors that are buffered, and no one else", async () => {
    const { exposures, stored } = writer();
    for (const [shop, visitor] of [
      [1, 'u:gone'],
      [1, 'c:7'],
      [1, 'u:kept'],
      [2, 'u:gone'],
    ] as const)
      exposures.record(exposure(shop, visitor));
    await exposures.forget(1, ['u:gone', 'c:7']);
    await exposures.flush();
    expect(stored.map((r) => `${r.shop_id}:${r.visitor}`).sort()).toEqual(['1:u:kept', '2:u:gone']);
  });

  it("drops every visitor of a deleted shop (null), and no other shop's", async () => {
    const { exposures, stored } = writer();
    for (const [shop, visitor] of [
      [1, 'u:a'],
      [1, 'c:7'],
      [2, 'u:a'],
    ] as const)
      exposures.record(exposure(shop, visitor));
    await exposures.forget(1, null);
    await exposures.flush();
    expect(stored.map((r) => `${r.shop_id}:${r.visitor}`)).toEqual(['2:u:a']);
  });

  it('waits for a write under way, and a failed one does not bring the visitor back', async () => {
    const { exposures, stored, holdWrites, release } = writer({ failFirst: true });
    exposures.record(exposure(1, 'u:gone'));
    holdWrites();
    const writing = exposures.flush();
    let forgotten = false;
    const forgetting = exposures.forget(1, ['u:gone']).then(() => (forgotten = true));
    await Promise.resolve();
    expect(forgotten).toBe(false);
    release();
    await Promise.all([writing, forgetting]);
    // The failed write put its row back for a retry; the erasure took it out again.
    expect(exposures.holds(1, 1, 'u:gone')).toBe(false);
    await exposures.flush();
    expect(stored).toEqual([]);
  });

  it('records a forgotten visitor again on a later visit', async () => {
    const { exposures, stored } = writer();
    exposures.record(exposure(1, 'u:back'));
    await exposures.flush();
    exposures.record(exposure(1, 'u:back'));
    expect(exposures.holds(1, 1, 'u:back')).toBe(false); // remembered as written
    await exposures.forget(1, ['u:back']);
    exposures.record(exposure(1, 'u:back'));
    expect(exposures.holds(1, 1, 'u:back')).toBe(true);
    await exposures.flush();
    expect(stored.map((r) => r.visitor)).toEqual(['u:back', 'u:back']);
  });
});

describe('ExposureWriter and the rows the store drops', () => {
  it('records a visitor again whose row the store dropped (made before an erasure), and not one it kept', async () => {
    const written: Exposure[] = [];
    const exposures = new ExposureWriter(
      async (rows) => {
        written.push(...rows);
        return rows.filter((r) => r.visitor === 'u:before-erasure');
      },
      { flushMs: 60_000, maxBatch: 1000, maxPending: 1000, remember: 1000 },
    );
    exposures.record(exposure(1, 'u:before-erasure'));
    exposures.record(exposure(1, 'u:kept'));
    await exposures.flush();
    expect(exposures.written).toBe(1);
    exposures.record(exposure(1, 'u:before-erasure'));
    exposures.record(exposure(1, 'u:kept'));
    expect(exposures.holds(1, 1, 'u:before-erasure')).toBe(true);
    expect(exposures.holds(1, 1, 'u:kept')).toBe(false);
  });
});
