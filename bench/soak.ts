/**
 * `npm run load:soak`: mixed storefront and back-office traffic against the built server with the
 * demo shop for a fixed time (SOAK_SECONDS, default 600), reporting throughput, p99, errors and
 * RSS at the start and the end. The last line is one JSON object.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from './lib/processes.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const TOKEN = 'soak-operator-token-0123456789abcdef';

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'rebound-soak-'));
  const server = await startProcess(
    ['dist/src/cli/main.js', 'serve'],
    {
      DATABASE_URL: `sqlite:${join(work, 'soak.db')}`,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'true',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    },
    3301,
    '/readyz',
  );
  try {
    const pub = /public key:\s+(\S+)/.exec(server.output())?.[1];
    const priv = /private key:\s+(\S+)/.exec(server.output())?.[1];
    if (!pub || !priv) throw new Error(`no demo keys printed:\n${server.output()}`);
    const admin = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.json() as Promise<any>);
    await admin('PATCH', '/admin/v1/shops/demo', {
      settings: { rate_limit_public_per_minute: 100_000_000, rate_limit_private_per_minute: 100_000_000 },
    });
    const rulesets = (await admin('GET', '/admin/v1/shops/demo/rulesets')).data as { id: number }[];
    const products = (await admin('GET', '/admin/v1/shops/demo/products?limit=50')).data as {
      id: number;
      handle: string;
    }[];
    const collections = (await admin('GET', '/admin/v1/shops/demo/collections')).data as { id: number }[];
    const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const requests: autocannon.Request[] = [];
    for (let i = 0; i < 40; i++) {
      const p = products[i % products.length]!;
      requests.push(
        {
          method: 'GET',
          path:
            `/api/v1/custom/id/${rulesets[i % rulesets.length]!.id}?key=${pub}` +
            `&shop_product_ids=${p.id}&cart_subtotal=${(i * 7) % 200}.00`,
        },
        { method: 'GET', path: `/api/v1/products/trending_products?key=${pub}&limit=${1 + (i % 10)}` },
        {
          method: 'GET',
          path:
            `/api/v1/products/collections?key=${pub}` +
            `&shop_collection_ids=${collections[i % collections.length]!.id}&smart_sort=yes`,
        },
        {
          method: 'POST',
          path:
            `/api/v1/analytics/event?key=${pub}&subject=user&verb=viewed` +
            `&noun=product&shop_product_handle=${p.handle}&uuid=${uuid(i)}`,
        },
        { method: 'GET', path: `/api/v1/products/viewed?key=${pub}&uuid=${uuid(i)}` },
        { method: 'GET', path: `/api/v1/billing/reactivate?key=${priv}&billing_customer_id=${80_000 + (i % 40)}` },
      );
    }
    const rssStart = server.rssMb();
    const samples: number[] = [rssStart];
    const sampler = setInterval(() => samples.push(server.rssMb()), 10_000);
    const result = await autocannon({ url: server.url, connections: 10, duration: SECONDS, requests });
    clearInterval(sampler);
    const rssEnd = server.rssMb();
    const summary = {
      seconds: SECONDS,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p99_ms: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      rss_start_mb: rssStart,
      rss_end_mb: rssEnd,
      rss_max_mb: Math.max(...samples, rssEnd),
    };
    console.log(
      `soak ${SECONDS} s, 10 connections, mixed custom / trending / collections / events / viewed / billing reads:`,
    );
    console.log(
      `  ${summary.rps} req/s, p99 ${summary.p99_ms} ms, ${summary.errors} errors, ${summary.non2xx} ` +
        `non-2xx; RSS ${rssStart} MB → ${rssEnd} MB (max ${summary.rss_max_mb} MB)`,
    );
    console.log(JSON.stringify(summary));
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
