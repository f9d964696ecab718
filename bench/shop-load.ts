/**
 * `npx tsx bench/shop-load.ts`: the CPU one shop's load costs, this build beside another build of
 * the project (LOAD_BASE: its checkout, built with `npm run build`), in one process and one run.
 * The shop is a multi-tenant run's small shop (150 products; the demo's customers, collections and
 * its 400 most recent orders, a month of its browsing), imported once with the other build's
 * services; this build opens a copy of that file (its migrations run on it). Loads alternate between the builds, each through
 * its own CatalogLoader: the whole load, then the sales figures alone. Reports the median and p90
 * CPU time (user + system) per load and the event loop's busy time, then the bytes a load
 * allocates on the V8 heap (garbage included: what the collector then works through).
 *
 * Settings: LOAD_BASE (the checkout to compare with; required), LOAD_REPEATS (200), LOAD_PRODUCTS (150).
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateDemoEvents } from '../demo/events.js';
import { generateDemoShop } from '../demo/generate.js';
import { CatalogLoader } from '../src/indexes/catalog-loader.js';
import { openStore } from '../src/store/open.js';
import { allocatedBytes } from './lib/allocation.js';

const BASE = process.env.LOAD_BASE;
const REPEATS = Number(process.env.LOAD_REPEATS ?? 200);
const PRODUCTS = Number(process.env.LOAD_PRODUCTS ?? 150);
/** Loads whose allocations are sampled, per build, after the timed ones. */
const ALLOCATION_LOADS = 100;

interface Loader {
  full(shopId: number): Promise<unknown>;
  sales(shopId: number): Promise<unknown>;
}

const baseModule = (path: string) => import(pathToFileURL(resolve(BASE!, 'dist', path)).href);

/** Imports the shop with the other build's services into a new SQLite file. */
async function seed(file: string): Promise<number> {
  const { loadConfig } = await baseModule('src/config/config.js');
  const { compose } = await baseModule('src/compose.js');
  const services = await compose(
    loadConfig({ DATABASE_URL: `sqlite:${file}`, REBOUND_DEMO: 'false', LOG_LEVEL: 'silent' }),
  );
  try {
    const data = generateDemoShop({ seed: 1001, productCount: PRODUCTS });
    const { shop } = await services.shops.createShop({ handle: 'load', name: 'load' });
    await services.catalog.upsertProducts(shop.id, data.products);
    await services.catalog.upsertCollections(shop.id, data.collections);
    await services.catalog.upsertCustomers(shop.id, data.customers);
    await services.catalog.upsertMarkets(shop.id, data.markets);
    await services.catalog.upsertOrders(shop.id, data.orders.slice(-400));
    // A month of browsing, as the demo shop has: a load reads the views and adds of every day and handle.
    await services.events.importEvents(shop.id, generateDemoEvents(data, { now: new Date(), seed: 1001 }));
    return shop.id;
  } finally {
    await services.close();
  }
}

/** CPU (ms, every thread of the process) and event-loop busy time of one call. */
async function measure(run: () => Promise<unknown>): Promise<{ cpu: number; busy: number }> {
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, busy: performance.eventLoopUtilization(loop).active };
}

/** Both builds must load the same sales figures, else the comparison means nothing. */
async function sameFigures(builds: [string, Loader][], shopId: number): Promise<void> {
  // Per-product figures in id order: a build may iterate them in another order (Map insertion, id table).
  const byId = (figure: Iterable<[number, number]>) => [...figure].sort((a, b) => a[0] - b[0]);
  const shown = (sales: any) =>
    JSON.stringify([
      sales.topSellers,
      sales.trending,
      byId(sales.unitsSold30d),
      byId(sales.trendingScores),
      sales.purchasedByCustomer.purchases,
    ]);
  const [first, second] = await Promise.all(builds.map(([, loader]) => loader.sales(shopId)));
  if (shown(first) !== shown(second)) throw new Error('the builds load different sales figures');
  if ((first as { topSellers: number[] }).topSellers.length === 0) throw new Error('the shop has no sales');
}

const quantile = (values: number[], q: number) =>
  Number([...values].sort((a, b) => a - b)[Math.floor(values.length * q)]!.toFixed(2));

async function main(): Promise<void> {
  if (!BASE) throw new Error('LOAD_BASE names the checkout to compare with');
  const dir = mkdtempSync(join(tmpdir(), 'rebound-load-'));
  try {
    const baseFile = join(dir, 'base.db');
    const shopId = await seed(baseFile);
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(baseFile + suffix)) copyFileSync(baseFile + suffix, join(dir, `this.db${suffix}`));
    const { openStore: openBase } = await baseModule('src/store/open.js');
    const { CatalogLoader: BaseLoader } = await baseModule('src/indexes/catalog-loader.js');
    const baseStore = await openBase(`sqlite:${baseFile}`);
    const thisStore = await openStore(`sqlite:${join(dir, 'this.db')}`);
    const builds: [string, Loader][] = [
      ['base', new BaseLoader(baseStore) as Loader],
      ['this', new CatalogLoader(thisStore)],
    ];
    await sameFigures(builds, shopId);
    const figures = new Map(
      builds.map(([name]) => [name, { full: [] as number[], sales: [] as number[], busy: [] as number[] }]),
    );
    for (let i = 0; i < REPEATS + 20; i++) {
      for (const [name, loader] of i % 2 ? builds : [...builds].reverse()) {
        const full = await measure(() => loader.full(shopId));
        const sales = await measure(() => loader.sales(shopId));
        if (i < 20) continue; // warm-up: compiled code, page cache
        const f = figures.get(name)!;
        f.full.push(full.cpu);
        f.busy.push(full.busy);
        f.sales.push(sales.cpu);
      }
    }
    const allocated = new Map<string, number>();
    for (const [name, loader] of builds) {
      const bytes = await allocatedBytes(async () => {
        for (let i = 0; i < ALLOCATION_LOADS; i++) await loader.full(shopId);
      });
      allocated.set(name, Math.round(bytes / ALLOCATION_LOADS / 1024));
    }
    const out = Object.fromEntries(
      [...figures].map(([name, f]) => [
        name,
        {
          loadCpuMs: { p50: quantile(f.full, 0.5), p90: quantile(f.full, 0.9) },
          loadBusyMs: quantile(f.busy, 0.5),
          salesCpuMs: { p50: quantile(f.sales, 0.5), p90: quantile(f.sales, 0.9) },
          allocatedKbPerLoad: allocated.get(name),
        },
      ]),
    );
    await baseStore.close();
    await thisStore.close();
    console.log(JSON.stringify({ loadavg: loadavg().map((l) => Number(l.toFixed(1))), repeats: REPEATS, ...out }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
