import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import type { Services } from '../compose.js';
import { AppError, InvalidInputError } from '../domain/errors.js';
import {
  CollectionInput,
  CustomerInput,
  InventoryInput,
  MarketInput,
  OrderInput,
  ProductInput,
} from '../domain/inputs/catalog.js';
import { validateRows } from '../domain/inputs/validate.js';
import { CommandError } from './errors.js';

/** The files an import folder may hold, in the order they must load (collections refer to products…). */
const FILES = ['products', 'collections', 'inventory', 'customers', 'markets', 'orders'] as const;
/** Each file's rows, checked before anything is written: the schema and the field unique within the file. */
const ROWS: Record<(typeof FILES)[number], { schema: TSchema; key: string }> = {
  products: { schema: ProductInput, key: 'id' },
  collections: { schema: CollectionInput, key: 'id' },
  inventory: { schema: InventoryInput, key: 'variant_id' },
  customers: { schema: CustomerInput, key: 'id' },
  markets: { schema: MarketInput, key: 'id' },
  orders: { schema: OrderInput, key: 'id' },
};
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

/** A file's rows, or a one-line refusal naming the file, the row and the field. */
function checkedRows(name: (typeof FILES)[number], path: string): unknown[] {
  const rows = readRows(path);
  if (!Array.isArray(rows))
    throw new CommandError(`${path} must hold a JSON array of ${name} (or be NDJSON, one per line).`);
  try {
    validateRows(ROWS[name].schema, rows, name, ROWS[name].key);
  } catch (error) {
    if (error instanceof AppError) throw new CommandError(`${path}: ${error.message} (nothing was imported)`);
    throw error;
  }
  return rows;
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
  // Every file is read and checked first: a mistake in the last one must not leave the first ones written.
  const present = filesIn(dir);
  const files = FILES.flatMap((name) => {
    const path = present.get(name);
    return path ? [{ name, path, rows: checkedRows(name, path) }] : [];
  });
  const written: string[] = [];
  for (const { name, path, rows } of files) {
    const started = performance.now();
    try {
      const result = await writers[name](shop.id, rows);
      out(`${name}: ${JSON.stringify(result)} in ${Math.round(performance.now() - started)} ms`);
    } catch (error) {
      // What the checks above cannot see: rows that name what the shop does not hold.
      if (!(error instanceof AppError)) throw error;
      const before = written.length > 0 ? ` (already imported: ${written.join(', ')})` : ' (nothing was imported)';
      throw new CommandError(`${path}: ${error.message}${before}`);
    }
    written.push(name);
  }
  for (const name of NOT_YET) {
    if (present.has(name)) out(`${name}: skipped — this version of Rebound does not import it yet`);
  }
  if (files.length === 0)
    throw new InvalidInputError(
      'dir',
      `No importable files in ${dir} (expected ${FILES.map((f) => `${f}.json`).join(', ')}).`,
    );
}

/**
 * The folder's files by the name they import as (`products` for products.json or products.ndjson).
 * Nothing is left out unsaid: both forms of one name, a folder by a file's name, or a JSON file of a
 * name Rebound does not know (`order.json`) refuse the import before anything is written.
 */
function filesIn(dir: string): Map<string, string> {
  const known = new Set<string>([...FILES, ...NOT_YET]);
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const match = /^(.*)\.(json|ndjson)$/.exec(entry.name);
    if (!match) continue;
    const name = match[1]!;
    const path = join(dir, entry.name);
    if (!known.has(name))
      throw new InvalidInputError(
        'dir',
        `${path} is not a file Rebound imports (expected ${FILES.map((f) => `${f}.json`).join(', ')}).`,
      );
    if (!entry.isFile()) throw new InvalidInputError('dir', `${path} is not a file.`);
    const other = found.get(name);
    if (other) throw new InvalidInputError('dir', `${other} and ${path} are both in ${dir}: keep one of them.`);
    found.set(name, path);
  }
  return found;
}
