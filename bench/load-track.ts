/**
 * `npm run load:track`: the tracking intake (`POST /api/v1/analytics/track`) beside the event
 * intake (`POST /api/v1/analytics/event`) it must keep up with, on SQLite and PostgreSQL: the same
 * server process, the same concurrent clients, one after the other. Every acknowledged tracking
 * event must be stored (counted back from the per-source totals); one missing fails the run.
 * Figures are indicative: clients and server share the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from './lib/processes.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const PG_URL = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const databases = (process.env.LOAD_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const TOKEN = 'track-load-operator-token-0123456789';

/** Starts the built server on an OS-assigned port and reads the port back from its log. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}\n${output}`)));
  });
  child.stdout!.removeAllListeners('data').resume();
  child.stderr!.removeAllListeners('data').resume();
  return { child, port };
}

async function run(database: 'sqlite' | 'postgres') {
  const work = mkdtempSync(join(tmpdir(), 'rebound-track-'));
  const schema = `track_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  if (database === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const databaseUrl = database === 'sqlite' ? `sqlite:${join(work, 'track.db')}` : `${PG_URL}?schema=${schema}`;
  const { child, port } = await startServer({
    DATABASE_URL: databaseUrl,
    REBOUND_ADMIN_TOKEN: TOKEN,
    REBOUND_DEMO: 'false',
  });
  const base = `http://127.0.0.1:${port}`;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  try {
    const { keys } = await admin('POST', '/admin/v1/shops', { handle: 'load', name: 'Load' });
    await admin('PATCH', '/admin/v1/shops/load', { settings: { rate_limit_public_per_minute: 100_000_000 } });
    // One event a request for both intakes; then the tracking intake's
    // JSON body of 10 events (what a page with several widgets sends).
    const modes: Record<
      string,
      { path: (uuid: string, n: number) => string; body?: (uuid: string, n: number) => string; events: number }
    > = {
      event: {
        path: (uuid, n) =>
          `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed` +
          `&noun=product&shop_product_handle=p-${n % 50}&uuid=${uuid}`,
        events: 1,
      },
      track: {
        path: (uuid, n) =>
          `/api/v1/analytics/track?key=${keys.public}&type=impression` +
          `&source=list:trending_products&product_id=${(n % 50) + 1}&uuid=${uuid}`,
        events: 1,
      },
      track_batch10: {
        path: () => `/api/v1/analytics/track?key=${keys.public}`,
        body: (uuid, n) =>
          JSON.stringify({
            events: Array.from({ length: 10 }, (_, i) => ({
              type: 'impression',
              uuid,
              source: 'list:trending_products',
              product_id: ((n + i) % 50) + 1,
            })),
          }),
        events: 10,
      },
    };
    const out: Record<string, number> = {};
    for (const [name, mode] of Object.entries(modes)) {
      const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
      const deadline = Date.now() + SECONDS * 1000;
      let acked = 0;
      const post = (p: string, body?: string) =>
        new Promise<number>((resolve) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: p,
              agent,
              ...(body ? { headers: { 'content-type': 'application/json' } } : {}),
            },
            (res) => {
              res.resume();
              res.on('close', () => resolve(res.complete ? (res.statusCode ?? 0) : 0));
            },
          );
          req.on('error', () => resolve(0));
          req.end(body);
        });
      const started = Date.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const uuid = randomUUID();
          for (let n = 0; Date.now() < deadline; n++)
            if ((await post(mode.path(uuid, n), mode.body?.(uuid, n))) === 200) acked += mode.events;
        }),
      );
      agent.destroy();
      out[`${name}_per_s`] = Math.round(acked / ((Date.now() - started) / 1000));
      out[`${name}_acknowledged`] = acked;
    }
    const stored =
      (await admin('GET', '/admin/v1/shops/load/attribution?days=2')).lists.find(
        (l: { list: string }) => l.list === 'trending_products',
      )?.impressions ?? 0;
    out.track_stored = stored;
    out.track_lost = Math.max(0, out.track_acknowledged! + out.track_batch10_acknowledged! - stored);
    return out;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(work, { recursive: true, force: true });
    if (database === 'postgres') {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  }
}

async function main() {
  const summary: Record<string, unknown> = {};
  let failed = false;
  for (const database of databases) {
    const result = await run(database);
    summary[database] = result;
    failed ||= result.track_lost! > 0;
    console.log(
      `${database.padEnd(9)} ${CLIENTS} clients, ${SECONDS} s each: event ` +
        `${result.event_per_s} events/s, track ${result.track_per_s} events/s, ` +
        `track with 10 a request ${result.track_batch10_per_s} events/s; tracking acknowledged ` +
        `${result.track_acknowledged! + result.track_batch10_acknowledged!}, stored ` +
        `${result.track_stored}, lost ${result.track_lost}`,
    );
  }
  console.log(JSON.stringify(summary));
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
