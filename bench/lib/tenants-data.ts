import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../../src/config/config.js';
import { compose, type Services } from '../../src/compose.js';
import { generateDemoEvents } from '../../demo/events.js';
import { generateDemoShop, type DemoData } from '../../demo/generate.js';
import { demoRulesets } from '../../demo/rulesets.js';

/** One generated shop as the load generator addresses it. */
export interface TenantShop {
  handle: string;
  key: string;
  rulesetIds: number[];
  collectionIds: number[];
  productIds: number[];
}

export interface TenantData {
  /** The SQLite file holding every shop (read-only for the runs: copy it before serving). */
  file: string;
  /** Shops in popularity order: index 0 is rank 1 of the Zipf draw. */
  shops: TenantShop[];
  /** Two larger shops that the load never touches, for the cold-load figures. */
  large: TenantShop[];
}

export const OPERATOR_TOKEN = 'tenants-operator-token-0123456789abcdef';

/** Every shop lifts the per-visitor limit: the whole load comes from one address. */
const UNLIMITED = { settings: { rate_limit_public_per_minute: 100_000_000 } };

const DISTINCT_CATALOGS = 25;
/** The sizes whose cold load the run reports. */
export const LARGE_SHOPS = [1_000, 10_000];
const ORDERS_PER_SHOP = 400;

const listableIds = (data: DemoData) =>
  data.products
    .filter((p) => p.status !== 'draft' && p.published_at !== null && !String(p.tags ?? '').includes('exclude_rebound'))
    .map((p) => p.id);

/** Imports one generated shop through the services the admin API uses. */
async function importShop(services: Services, handle: string, data: DemoData, rulesets: number): Promise<TenantShop> {
  const { shop, keys } = await services.shops.createShop({ handle, name: handle });
  await services.shops.updateShop(handle, UNLIMITED, { operator: true });
  await services.catalog.upsertProducts(shop.id, data.products);
  await services.catalog.upsertCollections(shop.id, data.collections);
  await services.catalog.upsertCustomers(shop.id, data.customers);
  await services.catalog.upsertMarkets(shop.id, data.markets);
  await services.catalog.upsertOrders(shop.id, data.orders);
  // A month of browsing as the demo shop has it: a load reads its views and adds per day and handle.
  await services.events.importEvents(shop.id, generateDemoEvents(data, { now: new Date() }));
  const rulesetIds: number[] = [];
  for (const ruleset of demoRulesets(data).slice(0, rulesets))
    rulesetIds.push((await services.rulesets.create(shop.id, ruleset)).id);
  return {
    handle,
    key: keys.public,
    rulesetIds,
    collectionIds: data.collections.map((c) => c.id),
    productIds: listableIds(data),
  };
}

/** Tables whose rows belong to one shop and make up its catalog, sales and rulesets. */
const SHOP_TABLES = [
  'products',
  'product_serving',
  'variants',
  'collections',
  'collection_products',
  'customers',
  'markets',
  'orders',
  'order_lines',
  'rulesets',
  'counters',
  'event_counts',
];

/**
 * Fills shop n (1-based, beyond the templates) with a copy of template ((n - 1) % templates) + 1: SQL, not the
 * API, for speed.
 */
function copyTemplates(file: string, shops: number, templates: number): void {
  const db = new SQLite(file);
  try {
    const ids = new Map(
      (db.prepare('select id, handle from shops').all() as { id: number; handle: string }[]).map((r) => [
        r.handle,
        r.id,
      ]),
    );
    const copy = SHOP_TABLES.map((table) => {
      const columns = (db.prepare(`pragma table_info(${table})`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => c !== 'shop_id');
      return db.prepare(
        `insert or replace into ${table} (shop_id, ${columns.join(', ')}) ` +
          `select ?, ${columns.join(', ')} from ${table} where shop_id = ?`,
      );
    });
    const settings = db.prepare('update shops set settings = (select settings from shops where id = ?) where id = ?');
    db.transaction(() => {
      for (let n = templates + 1; n <= shops; n++) {
        const target = ids.get(`tenant-${n}`)!;
        const source = ids.get(`tenant-${((n - 1) % templates) + 1}`)!;
        for (const statement of copy) statement.run(target, source);
        settings.run(source, target);
      }
    })();
  } finally {
    db.close();
  }
}

/**
 * The shops of the multi-tenant run, generated with the demo generator and imported once into a
 * SQLite file under `dir`; later runs with the same counts reuse it (delete the folder to redo).
 */
export async function prepareTenants(
  dir: string,
  counts: { shops: number; products: number },
  log: (line: string) => void,
): Promise<TenantData> {
  const name = `${counts.shops}x${counts.products}-v3`;
  const file = join(dir, `${name}.db`);
  const manifest = join(dir, `${name}.json`);
  if (existsSync(file) && existsSync(manifest)) {
    log(`reusing ${file}`);
    return { file, ...(JSON.parse(readFileSync(manifest, 'utf8')) as Omit<TenantData, 'file'>) };
  }
  mkdirSync(dir, { recursive: true });
  const building = `${file}.building`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  const config = loadConfig({
    DATABASE_URL: `sqlite:${building}`,
    REBOUND_ADMIN_TOKEN: OPERATOR_TOKEN,
    REBOUND_DEMO: 'false',
    LOG_LEVEL: 'silent',
    REBOUND_MEMORY_BUDGET_MB: '256',
  });
  const services = await compose(config);
  const started = performance.now();
  const shops: TenantShop[] = [];
  const large: TenantShop[] = [];
  try {
    // A few distinct catalogs, each imported into many shops: generating is slower than importing,
    // and each shop still holds its own copy in memory. Recent orders only, a small shop's share.
    const catalogs = Array.from({ length: Math.min(DISTINCT_CATALOGS, counts.shops) }, (_, i) => {
      const data = generateDemoShop({ seed: 1000 + i, productCount: counts.products });
      return { ...data, orders: data.orders.slice(-ORDERS_PER_SHOP) };
    });
    for (let i = 0; i < counts.shops; i++) {
      const handle = `tenant-${i + 1}`;
      if (i < catalogs.length) {
        shops.push(await importShop(services, handle, catalogs[i]!, 1));
      } else {
        // The rest are created through the service (keys) and filled by copying a template's rows below.
        const { keys } = await services.shops.createShop({ handle, name: handle });
        shops.push({ ...shops[i % catalogs.length]!, handle, key: keys.public });
      }
      if ((i + 1) % 100 === 0) log(`  ${i + 1} shops created (${Math.round((performance.now() - started) / 1000)} s)`);
    }
    for (const productCount of LARGE_SHOPS) {
      large.push(await importShop(services, `large-${productCount}`, generateDemoShop({ seed: 7, productCount }), 5));
      log(`  the ${productCount}-product shop imported (${Math.round((performance.now() - started) / 1000)} s)`);
    }
  } finally {
    await services.close();
  }
  copyTemplates(building, counts.shops, DISTINCT_CATALOGS);
  log(`  rows copied into the other shops (${Math.round((performance.now() - started) / 1000)} s)`);
  renameSync(building, file);
  writeFileSync(manifest, JSON.stringify({ shops, large }));
  return { file, shops, large };
}
