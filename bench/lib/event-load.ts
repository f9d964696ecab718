import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { startProcess, type Running } from './processes.js';

export interface EventLoadOptions {
  database: 'sqlite' | 'postgres';
  clients: number;
  seconds: number;
  /** Kill the server with SIGKILL this far into the run, then restart it and count. */
  crashAfterMs?: number;
  /**
   * Keep going (and put off the crash) until this many events are acknowledged, however long that
   * takes: tests ask for a count of work, not for what a busy machine does in some seconds.
   */
  minAcknowledged?: number;
  /** Processes of the server (REBOUND_WORKERS); one unless given. */
  workers?: number;
  /** 0 (the default) lets the system choose a free port. */
  port?: number;
  /** How to start the server: the built one (bench) or the sources (tests). */
  serverArgs: string[];
  /**
   * Events per request: 1 (the default) is one `POST /api/v1/analytics/event` each; more sends them
   * as one `POST /api/v2/analytics/event/bulk` (at most 10), the platform widget's batched form.
   */
  batch?: number;
  pgUrl?: string;
}

export interface EventLoadResult {
  sent: number;
  acknowledged: number;
  stored: number;
  /** Acknowledged events that are not stored: must be 0. */
  lost: number;
  failed: number;
  eventsPerSecond: number;
  /**
   * Acknowledged events per second of the server's CPU time (clean runs only, else null): what one
   * core sustains, and a figure that other work on a shared machine disturbs far less than wall time.
   */
  eventsPerCpuSecond: number | null;
  /**
   * Acknowledged events per second of this load generator's own CPU time (clean runs only): it runs
   * on the same machine as the server and takes its share of the cores.
   */
  eventsPerClientCpuSecond: number | null;
  crashed: boolean;
}

const TOKEN = 'event-load-operator-token-0123456789';

/** The processes a process started (Linux /proc): a node's workers. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Drives the event intake with concurrent clients (one session each), then counts what was stored per session. */
export async function runEventLoad(options: EventLoadOptions): Promise<EventLoadResult> {
  const work = mkdtempSync(join(tmpdir(), 'rebound-events-'));
  const pgUrl = options.pgUrl ?? 'postgres://postgres@127.0.0.1:5432/test';
  let schema: string | null = null;
  let databaseUrl = `sqlite:${join(work, 'events.db')}`;
  if (options.database === 'postgres') {
    schema = `load_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    databaseUrl = `${pgUrl}?schema=${schema}`;
  }
  const env = {
    DATABASE_URL: databaseUrl,
    REBOUND_ADMIN_TOKEN: TOKEN,
    REBOUND_DEMO: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    REBOUND_WORKERS: String(options.workers ?? 1),
  };
  let server: Running = await startProcess(options.serverArgs, env, options.port ?? 0, '/readyz');
  try {
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const { keys } = await admin('POST', '/admin/v1/shops', { handle: 'load', name: 'Load' });
    // Every client shares one address here: lift the per-visitor limit meant for storefronts.
    await admin('PATCH', '/admin/v1/shops/load', { settings: { rate_limit_public_per_minute: 100_000_000 } });
    const agent = new Agent({ keepAlive: true, maxSockets: options.clients });
    const deadline = Date.now() + options.seconds * 1000;
    let stop = false;
    let crashed = false;
    const clients = Array.from({ length: options.clients }, () => ({
      uuid: randomUUID(),
      sent: 0,
      acked: 0,
      failed: 0,
    }));
    const batch = options.batch ?? 1;
    if (batch < 1 || batch > 10) throw new RangeError(`batch must be 1 to 10 events, got ${batch}`);
    /** The path and body of one request carrying `batch` views of the session, the first numbered `n`. */
    const requestOf = (uuid: string, n: number): { path: string; body: string | null } => {
      if (batch === 1) {
        const path =
          `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product` +
          `&shop_product_handle=p-${n % 50}&uuid=${uuid}`;
        return { path, body: null };
      }
      const views = Array.from({ length: batch }, (_, i) => ({
        subject: 'user',
        verb: 'viewed',
        noun: 'product',
        uuid,
        defined_noun_id: `p-${(n + i) % 50}`,
      }));
      return { path: `/api/v2/analytics/event/bulk?key=${keys.public}`, body: JSON.stringify(views) };
    };
    const post = (uuid: string, n: number) =>
      new Promise<number>((resolve) => {
        const { path, body } = requestOf(uuid, n);
        const headers = body === null ? {} : { 'content-type': 'application/json' };
        const req = request(
          { host: '127.0.0.1', port: new URL(server.url).port, method: 'POST', path, headers, agent },
          (res) => {
            res.resume();
            // A crash mid-body never emits 'end'; 'close' always comes, and only a complete answer counts as
            // acknowledged.
            res.on('close', () => resolve(res.complete ? (res.statusCode ?? 0) : 0));
          },
        );
        req.on('error', () => resolve(0));
        req.end(body ?? undefined);
      });
    const started = Date.now();
    const cpuBefore = server.cpuMs();
    const clientCpuBefore = process.cpuUsage();
    const acknowledged = () => clients.reduce((total, c) => total + c.acked, 0);
    const enough = () => acknowledged() >= (options.minAcknowledged ?? 0);
    const kill = () => {
      if (!enough()) return void setTimeout(kill, 20);
      crashed = true;
      // Every process of the node at once: its workers first (children of the primary), then the primary.
      for (const pid of childPids(server.child.pid!)) process.kill(pid, 'SIGKILL');
      server.child.kill('SIGKILL');
    };
    const crash = options.crashAfterMs === undefined ? null : setTimeout(kill, options.crashAfterMs);
    await Promise.all(
      clients.map(async (c) => {
        // A crash run goes on until the crash; a clean one until the deadline and the count.
        while (!stop && (Date.now() < deadline || !enough() || (crash !== null && !crashed))) {
          const status = await post(c.uuid, c.sent + 1);
          c.sent += batch;
          if (status === 200) c.acked += batch;
          else c.failed += batch;
          if (crashed && status === 0) break; // the server is gone: this client stops
        }
      }),
    );
    stop = true;
    const cpuUsed = crashed ? null : server.cpuMs() - cpuBefore;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const clientCpuUsed = crashed ? null : (clientCpu.user + clientCpu.system) / 1000;
    if (crash) clearTimeout(crash);
    const elapsed = (Date.now() - started) / 1000;
    agent.destroy();
    if (crashed) {
      await new Promise((r) => setTimeout(r, 200));
      server = await startProcess(options.serverArgs, env, options.port ?? 0, '/readyz');
    }
    let stored = 0;
    let lost = 0;
    for (const c of clients) {
      const { data } = await admin('GET', `/admin/v1/shops/load/events?uuid=${c.uuid}&limit=100000`);
      stored += data.length;
      lost += Math.max(0, c.acked - data.length);
      if (data.length > c.sent) throw new Error(`session ${c.uuid}: ${data.length} stored but only ${c.sent} sent`);
    }
    const sum = (f: (c: (typeof clients)[number]) => number) => clients.reduce((total, c) => total + f(c), 0);
    return {
      sent: sum((c) => c.sent),
      acknowledged: sum((c) => c.acked),
      stored,
      lost,
      failed: sum((c) => c.failed),
      eventsPerSecond: Math.round(sum((c) => c.acked) / (crashed ? options.crashAfterMs! / 1000 : elapsed)),
      eventsPerCpuSecond: cpuUsed ? Math.round(sum((c) => c.acked) / (cpuUsed / 1000)) : null,
      eventsPerClientCpuSecond: clientCpuUsed ? Math.round(sum((c) => c.acked) / (clientCpuUsed / 1000)) : null,
      crashed,
    };
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
    if (schema) {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  }
}
