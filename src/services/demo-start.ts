import type { SettingStore } from '../store/kysely/settings.js';
import { DEMO_HANDLE, type DemoSeedResult, seedDemoFromServices } from './demo.js';

/**
 * "yes" while the demo shop is being built. A start stopped meanwhile (killed, a failed write) left a
 * half-built shop: the next start, or `seed-demo`, builds it again from nothing and shows new keys. So
 * does a start that built it and then failed before showing its keys (a port it could not bind). A
 * database seeded before this setting existed has none, and its demo shop is left as it is.
 */
const DEMO_PENDING = 'demo_seed_pending';

type DemoServices = Parameters<typeof seedDemoFromServices>[0] & {
  store: SettingStore;
  privacy: { shopRedact(shopId: number): Promise<string> };
};

/** The demo shop of a server's start: into a database without shops, or again after a stopped start; else null. */
export async function seedDemoOnStart(services: DemoServices, publicUrl: string): Promise<DemoSeedResult | null> {
  const noShops = (await services.shops.listShops()).length === 0;
  if (!noShops && !(await isPending(services.store))) return null;
  return seedDemo(services, publicUrl);
}

/** `seed-demo`: creates the demo shop, builds a half-built one again, or refreshes a whole one. */
export async function seedDemo(services: DemoServices, publicUrl: string): Promise<DemoSeedResult> {
  const demo = (await services.shops.listShops()).find((shop) => shop.handle === DEMO_HANDLE);
  const pending = await isPending(services.store);
  if (demo && pending) await services.privacy.shopRedact(demo.id);
  if (!demo || pending) await services.store.putSetting(DEMO_PENDING, 'yes');
  const seeded = await seedDemoFromServices(services, publicUrl);
  await services.store.putSetting(DEMO_PENDING, 'no');
  return seeded;
}

/** The start that built the demo shop failed before showing its keys: the next one builds it again. */
export async function demoKeysUnshown(store: SettingStore): Promise<void> {
  await store.putSetting(DEMO_PENDING, 'yes');
}

async function isPending(store: SettingStore): Promise<boolean> {
  return (await store.getSetting(DEMO_PENDING)) === 'yes';
}
