import { afterAll, describe, expect, it } from 'vitest';
import { seedDemo, seedDemoOnStart } from '../../src/services/demo-start.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';

const PUBLIC_URL = 'http://127.0.0.1:3000';

/** The services, with the ledger's writes failing: a start stopped after the catalog, before billing. */
function stoppedWhileSeeding(t: TestApp): Parameters<typeof seedDemo>[0] {
  const ledger = Object.create(t.services.ledger) as typeof t.services.ledger;
  ledger.upsert = async () => {
    throw new Error('the process was stopped here');
  };
  return { ...t.services, ledger };
}

async function demoShop(t: TestApp) {
  return (await t.services.shops.listShops()).find((shop) => shop.handle === 'demo') ?? null;
}

describe.each(backends())('the demo shop of a first start ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  it('is built again from nothing, with keys shown, after a start stopped while building it', async () => {
    const t = await startApp(backend);
    try {
      await expect(seedDemoOnStart(stoppedWhileSeeding(t), PUBLIC_URL)).rejects.toThrow('stopped here');
      const halfBuilt = await demoShop(t);
      expect(halfBuilt).not.toBeNull();

      const again = await seedDemoOnStart(t.services, PUBLIC_URL);
      expect(again).toMatchObject({ created: true, counts: { rulesets: 5, 'billing customers': 40 } });
      expect(again!.keys?.public).toMatch(/^rb_pub_/);
      const rebuilt = await demoShop(t);
      expect(rebuilt!.id).not.toBe(halfBuilt!.id);
      expect(await t.services.rulesets.list(rebuilt!.id)).toHaveLength(5);
      // Whole now: the next start leaves it, and the merchant's changes, alone.
      expect(await seedDemoOnStart(t.services, PUBLIC_URL)).toBeNull();
      expect((await demoShop(t))!.id).toBe(rebuilt!.id);
    } finally {
      await t.close();
    }
  }, 300_000);

  it('is left alone when it was built by a version that did not mark it', async () => {
    const t = await startApp(backend);
    try {
      const made = await t.createShop('demo');
      expect(await seedDemoOnStart(t.services, PUBLIC_URL)).toBeNull();
      expect((await demoShop(t))!.id).toBe(made.id);
      // `seed-demo` refreshes it in place: its keys stay, none are printed.
      const refreshed = await seedDemo(t.services, PUBLIC_URL);
      expect(refreshed).toMatchObject({ created: false, keys: null });
      expect((await demoShop(t))!.id).toBe(made.id);
    } finally {
      await t.close();
    }
  }, 300_000);
});
