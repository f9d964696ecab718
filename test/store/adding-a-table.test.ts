import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { backends } from '../helpers/backends.js';

/** Keeps CONTRIBUTING.md, "Adding a table" true: each step it names is checked here. */
const SRC = join(import.meta.dirname, '../../src');
const read = (path: string) => readFileSync(join(SRC, path), 'utf8');

/** The top-level keys of an interface declared in a file of src/store or src/store/kysely, with those it extends. */
function keysOf(name: string): string[] {
  const file = ['store', 'store/kysely']
    .flatMap((dir) => readdirSync(join(SRC, dir)).map((f) => `${dir}/${f}`))
    .find((f) => f.endsWith('.ts') && new RegExp(`export interface ${name}\\s`).test(read(f)));
  const text = read(file!);
  const head = new RegExp(`export interface ${name}(?:\\s+extends ([\\w,\\s]+?))? \\{`).exec(text)!;
  const body = text.slice(head.index + head[0].length).split('\n}\n')[0]!;
  const inherited = (head[1] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .flatMap(keysOf);
  return [...inherited, ...[...body.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]!)];
}

/** The tables `Database` declares (src/store/schema.ts and the aggregates' tables it extends). */
function declaredTables(): string[] {
  return keysOf('Database').sort();
}

/**
 * Read-model parts a generation holds that footprint.ts does not count one by one (their cost is its fixed GENERATION).
 */
const FIXED_COST = new Set(['shop', 'version', 'markets', 'experiments']);

describe('adding a table', () => {
  it('registers every migration file in migrations/index.ts, under its file name', async () => {
    const files = readdirSync(join(SRC, 'store/migrations'))
      .filter((f) => f !== 'index.ts' && f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(files.length).toBeGreaterThan(5);
    for (const file of files)
      expect(file, 'a migration is named YYYY_MM_DD_NNNN_what').toMatch(/^\d{4}_\d{2}_\d{2}_\d{4}_[a-z0-9_]+$/);
    expect(Object.keys(await migrationProvider.getMigrations()).sort()).toEqual(files);
  });

  it('counts every part of the read model in footprint.ts, or names it as a fixed cost', () => {
    const params = read('indexes/shop-catalog.ts')
      .split('export class ShopCatalog {')[1]!
      .split('constructor(')[1]!
      .split(') {')[0]!;
    const parts = [...params.matchAll(/readonly (\w+):/g)].map((m) => m[1]!);
    expect(parts).toContain('products');
    const footprint = read('indexes/footprint.ts');
    const uncounted = parts.filter((p) => !FIXED_COST.has(p) && !footprint.includes(`catalog.${p}`));
    expect(uncounted, 'add the new part to estimateCatalogBytes (src/indexes/footprint.ts)').toEqual([]);
  });

  it('gives services the store ports they use, never hand-kept Pick<Store, …> lists', () => {
    const services = (dir: string): string[] =>
      readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? services(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
    const files = services('services');
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => /Pick<\s*Store\b/.test(read(f)))).toEqual([]);
  });

  describe.each(backends())('on $name', (backend) => {
    afterAll(() => backend.cleanup());

    it('creates by migration exactly the tables schema.ts declares', async () => {
      const url = await backend.url();
      await (await backend.open()).close();
      const connection = connect(url);
      try {
        const tables = (await connection.db.introspection.getTables())
          .filter((t) => (connection.schema ? t.schema === connection.schema : true) && !t.name.startsWith('kysely_'))
          .map((t) => t.name)
          .sort();
        expect(tables).toEqual(declaredTables());
      } finally {
        await connection.db.destroy();
      }
    });
  });
});
