import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../compose.js';
import { InvalidInputError } from '../domain/errors.js';

/** The files an import folder may hold, in the order they must load (collections refer to products…). */
const FILES = ['products', 'collections', 'inventory', 'customers', 'markets', 'orders'] as const;
/** Files other parts of the service will read once they exist; reported, not silently ignored. */
const NOT_YET = ['rulesets', 'billing_customers', 'billing_addresses', 'billing_subscriptions', 'billing_charges'];

function readRows(path: string): unknown[] {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.ndjson')) {
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((line, i) => {
        try {
          return JSON.parse(line) as unknown;
        } catch {
          throw new InvalidInputError('file', `${path}: line ${i + 1} is not valid JSON.`);
        }
      });
  }
  try {
    return JSON.parse(text) as unknown[];
  } catch {
    throw new InvalidInputError('file', `${path} is not valid JSON.`);
  }
}

/** Loads a folder of JSON / NDJSON files into a shop through the admin services. */
export async function importFolder(
  services: Services,
  dir: string,
  handle: string,
  out: (line: string) => void,
): Promise<void> {
  // A mistyped folder is told as such, not as a folder with nothing to import.
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new InvalidInputError('dir', `${dir} is not a folder.`);
  const shop = await services.shops.requireShop(handle);
  const writers: Record<(typeof FILES)[number], (shopId: number, rows: unknown) => Promise<object>> = {
    products: services.catalog.upsertProducts,
    collections: services.catalog.upsertCollections,
    inventory: services.catalog.setInventory,
    customers: services.catalog.upsertCustomers,
    markets: services.catalog.upsertMarkets,
    orders: services.catalog.upsertOrders,
  };
  let found = 0;
  for (const name of FILES) {
    const path = [join(dir, `${name}.json`), join(dir, `${name}.ndjson`)].find((p) => existsSync(p));
    if (!path) continue;
    found++;
    const started = performance.now();
    const result = await writers[name](shop.id, readRows(path));
    out(`${name}: ${JSON.stringify(result)} in ${Math.round(performance.now() - started)} ms`);
  }
  for (const name of NOT_YET) {
    if (existsSync(join(dir, `${name}.json`)) || existsSync(join(dir, `${name}.ndjson`))) {
      out(`${name}: skipped — this version of Rebound does not import it yet`);
    }
  }
  if (found === 0)
    throw new InvalidInputError(
      'dir',
      `No importable files in ${dir} (expected ${FILES.map((f) => `${f}.json`).join(', ')}).`,
    );
}
