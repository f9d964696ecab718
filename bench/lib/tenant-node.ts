import { readFileSync } from 'node:fs';
import { rssMb, type Running } from './processes.js';

/** The figures of `/metrics` bench/tenants.ts follows. */
export const FOLLOWED = [
  'rebound_shop_loads',
  'rebound_shop_snapshot_loads',
  'rebound_shop_evictions',
  'rebound_resident_shops',
  'rebound_resident_estimated_bytes',
  'rebound_resident_allowance_bytes',
  'rebound_cache_hits',
  'rebound_cache_misses',
  'nodejs_heap_size_used_bytes',
  'nodejs_heap_size_total_bytes',
  'nodejs_external_memory_bytes',
] as const;

export interface NodeMetrics {
  /** Each figure summed over the node's workers (a single process's own figure when it has none). */
  sum: Record<string, number>;
  /** Each worker's figures by its `worker` label ("1" for a single process). */
  byWorker: Record<string, Record<string, number>>;
}

/**
 * One scrape of a node's `/metrics`. A node of several workers labels each series with the worker
 * it comes from (`name{worker="2"} 17`); a single process writes `name 17`.
 */
export async function scrapeNode(server: Running): Promise<NodeMetrics> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const sum: Record<string, number> = {};
  const byWorker: Record<string, Record<string, number>> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || !(FOLLOWED as readonly string[]).includes(match[1]!)) continue;
    // Only the worker label: a series with other labels (none of the followed has any) would be a part.
    const labels = match[2] ?? '';
    if (labels.replace(/worker="\d+",?/, '') !== '') continue;
    const worker = /worker="(\d+)"/.exec(labels)?.[1] ?? '1';
    const value = Number(match[3]);
    const name = match[1]!;
    sum[name] = (sum[name] ?? 0) + value;
    byWorker[worker] = { ...byWorker[worker], [name]: value };
  }
  return { sum, byWorker };
}

/** The worker processes of a node (children of its primary); none for a single process. */
export function workerPids(server: Running): number[] {
  const pid = server.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children === '' ? [] : children.split(/\s+/).map(Number);
}

/**
 * RSS of every process of a node, sampled: the primary's and each worker's peak (a worker replaced
 * during the run counts as one more). With one process, `serving()` is that process.
 */
export class NodeRss {
  readonly peakByPid = new Map<number, number>();
  primaryPeak = 0;
  /** The last sample: each worker's RSS and the primary's. */
  last = { workers: [] as number[], primary: 0 };
  constructor(private readonly server: Running) {}

  /** Samples every process; returns the largest RSS of a serving process now. */
  sample(): number {
    const primary = this.server.rssMb();
    this.primaryPeak = Math.max(this.primaryPeak, primary);
    const workers = workerPids(this.server).sort((a, b) => a - b);
    const now = workers.map(rssOrZero);
    this.last = { workers: now, primary };
    if (workers.length === 0) return primary;
    for (const [i, pid] of workers.entries()) this.peakByPid.set(pid, Math.max(this.peakByPid.get(pid) ?? 0, now[i]!));
    return Math.max(...now);
  }

  /** Each worker's peak, in the order the workers started. */
  workerPeaks(): number[] {
    return [...this.peakByPid.entries()].sort(([a], [b]) => a - b).map(([, rss]) => rss);
  }
}

/** A worker that has just exited has no RSS left to read. */
function rssOrZero(pid: number): number {
  try {
    return rssMb(pid);
  } catch {
    return 0;
  }
}
