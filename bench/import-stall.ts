/**
 * `npm run bench:import`: what a large catalog import costs the other shops of its process
 * (docs/scaling.md, "Imports beside serving"). One process (`REBOUND_WORKERS=1`) on a new SQLite
 * file serves a small resident shop, asked for its trending list (`bust_cache=yes`) every 5 ms,
 * while IMPORT_PRODUCTS products are imported into another shop, as a JSON array and as NDJSON.
 * Reports how long the import took and how long the resident shop's requests waited meanwhile
 * (p50, p99, longest), then the same for the imported shop's first request (its cold load), per
 * build and format, runs alternating between builds.
 *
 *   IMPORT_BUILDS=before=/path/to/other/checkout,this=. IMPORT_RUNS=2 npm run bench:import
 *
 * A build is a checkout whose `dist/` is built. The last line printed is one JSON object with every run.
 * Settings: IMPORT_PRODUCTS (20000), IMPORT_RUNS (2), IMPORT_FORMATS (json,ndjson), IMPORT_TAGS (tags a
 * product and their length, `250x110` for products at the platform's bounds; three short tags if unset).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT, startFlags, startProcess, type Running } from './lib/processes.js';

const PRODUCTS = Number(process.env.IMPORT_PRODUCTS ?? 20_000);
const RUNS = Number(process.env.IMPORT_RUNS ?? 2);
const FORMATS = (process.env.IMPORT_FORMATS ?? 'json,ndjson').split(',') as ('json' | 'ndjson')[];
const BUILDS = (process.env.IMPORT_BUILDS ?? 'this=.').split(',').map((entry) => {
  const [name, dir] = entry.split('=') as [string, string];
  return { name, dir: resolve(ROOT, dir) };
});
const [TAG_COUNT, TAG_LENGTH] = (process.env.IMPORT_TAGS ?? '0x0').split('x').map(Number) as [number, number];
const TOKEN = 'import-bench-admin-token-0123456789abcdef';
const PING_EVERY_MS = 5;

/** A platform-shaped product of about 800 bytes: three variants, an image, tags. */
function product(id: number) {
  return {
    id,
    title: `Product ${id} wool linen`,
    handle: `product-${id}`,
    body_html: `<p>About product ${id}, a fine thing made of wool and linen for camping.</p>`,
    vendor: `Vendor ${id % 50}`,
    product_type: `Type ${id % 20}`,
    tags: TAG_COUNT > 0 ? longTags(id) : `alpha, beta, t${id % 100}`,
    created_at: '2026-01-01T00:00:00Z',
    variants: [1, 2, 3].map((v) => ({
      id: id * 10 + v,
      price: `${10 + v}.00`,
      inventory_management: 'shop',
      inventory_policy: 'deny',
      inventory_quantity: v,
      option1: `S${v}`,
    })),
    options: [{ name: 'Size', values: ['S1', 'S2', 'S3'] }],
    images: [{ id: id * 10 + 7, src: `https://img.example/${id}.png`, width: 100, height: 100 }],
  };
}

/** TAG_COUNT tags of TAG_LENGTH characters, most of them this product's own. */
function longTags(id: number): string {
  return Array.from({ length: TAG_COUNT }, (_, t) => {
    const stem = t % 10 === 0 ? `shared ${t}` : `p${id} t${t}`;
    return `${stem} `.padEnd(TAG_LENGTH, 'x');
  }).join(', ');
}

interface Stall {
  ms: number;
  waits: number;
  p50Ms: number;
  p99Ms: number;
  longestMs: number;
}

interface Run {
  build: string;
  format: string;
  import: Stall;
  firstRequest: Stall;
  again: Stall;
}

async function admin(server: Running, method: string, path: string, body: string, type = 'application/json') {
  const res = await fetch(`${server.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': type },
    body,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json() as Promise<any>;
}

/** How long `action` took, and how long the resident shop's requests, one every 5 ms, waited meanwhile. */
async function stallDuring(server: Running, key: string, action: () => Promise<unknown>): Promise<Stall> {
  const waits: number[] = [];
  let running = true;
  const asking = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/products/trending_products?key=${key}&bust_cache=yes`);
      await res.arrayBuffer();
      waits.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, PING_EVERY_MS));
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const started = performance.now();
  await action();
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  running = false;
  await asking;
  waits.sort((a, b) => a - b);
  const at = (q: number) => Math.round(waits[Math.min(waits.length - 1, Math.floor(waits.length * q))]! * 10) / 10;
  return { ms: Math.round(ms), waits: waits.length, p50Ms: at(0.5), p99Ms: at(0.99), longestMs: at(1) };
}

/** One import into a new shop, then that shop's first request (its load), the resident shop asked meanwhile. */
async function importBeside(server: Running, key: string, format: 'json' | 'ndjson', n: number) {
  const handle = `import-${format}-${n}`;
  const created = await admin(server, 'POST', '/shops', JSON.stringify({ handle, name: handle }));
  const rows = Array.from({ length: PRODUCTS }, (_, i) => product(i + 1));
  const body = format === 'json' ? JSON.stringify(rows) : rows.map((row) => JSON.stringify(row)).join('\n');
  const type = format === 'json' ? 'application/json' : 'application/x-ndjson';
  const imported = await stallDuring(server, key, () => admin(server, 'PUT', `/shops/${handle}/products`, body, type));
  const url = `${server.url}/api/v1/products/trending_products?key=${created.keys.public}`;
  const firstRequest = await stallDuring(server, key, async () => (await fetch(url)).arrayBuffer());
  // Now resident: the same import again patches its read model.
  const again = await stallDuring(server, key, () => admin(server, 'PUT', `/shops/${handle}/products`, body, type));
  return { import: imported, firstRequest, again };
}

async function startBuild(dir: string, work: string): Promise<{ server: Running; key: string }> {
  const server = await startProcess(
    [
      ...startFlags(dir),
      ...(process.env.IMPORT_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      join(dir, 'dist/src/cli/main.js'),
      'serve',
    ],
    {
      DATABASE_URL: `sqlite:${join(work, `${Date.now()}.db`)}`,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_WORKERS: '1',
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REDIS_URL: '',
    },
    0,
    '/readyz',
  );
  const created = await admin(server, 'POST', '/shops', JSON.stringify({ handle: 'resident', name: 'Resident' }));
  await admin(server, 'PATCH', '/shops/resident', JSON.stringify({ settings: { rate_limit_public_per_minute: 1e6 } }));
  const catalog = Array.from({ length: 150 }, (_, i) => product(1_000_000 + i));
  await admin(server, 'PUT', '/shops/resident/products', JSON.stringify(catalog));
  const key = created.keys.public as string;
  // Loaded now: the answers asked during the imports come from memory.
  await (await fetch(`${server.url}/api/v1/products/trending_products?key=${key}`)).arrayBuffer();
  return { server, key };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'rebound-import-bench-'));
  const runs: Run[] = [];
  try {
    for (let round = 0; round < RUNS; round++) {
      for (const build of BUILDS) {
        const { server, key } = await startBuild(build.dir, work);
        try {
          for (const format of FORMATS) {
            const run = { build: build.name, format, ...(await importBeside(server, key, format, round)) };
            runs.push(run);
            for (const [what, stall] of [
              ['import', run.import],
              ['first request', run.firstRequest],
              ['import again', run.again],
            ] as const) {
              const waits = `p50 ${stall.p50Ms} ms, p99 ${stall.p99Ms} ms, longest ${stall.longestMs} ms`;
              console.log(
                `${run.build.padEnd(8)} ${format.padEnd(6)} ${what} ${stall.ms} ms; ` +
                  `the resident shop's ${stall.waits} requests: ${waits}`,
              );
            }
          }
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ products: PRODUCTS, tags: process.env.IMPORT_TAGS ?? null, runs }));
}

await main();
