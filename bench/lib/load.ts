import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  connections?: number;
  seconds?: number;
  headers?: Record<string, string>;
}

/**
 * BENCH_LOADER: `autocannon` (the default) or `wrk` (the `wrk` binary, Debian's package; BENCH_WRK
 * for another path). autocannon runs in a node process and on two cores is often the ceiling it
 * measures: 6,926 answers of 46 KB a second from the bare server, where wrk, one C thread, got
 * 25,377 from the same server in the same run
 * (docs/benchmarks.md, "A load generator that leaves the cores to the server (§23)").
 */
export const LOADER = loaderOf(process.env.BENCH_LOADER ?? 'autocannon');

function loaderOf(name: string): 'wrk' | 'autocannon' {
  if (name !== 'wrk' && name !== 'autocannon') throw new Error(`BENCH_LOADER is wrk or autocannon, not ${name}`);
  return name;
}

/** The seconds a load of `seconds` runs: wrk reads whole seconds only. */
export const loadSeconds = (seconds: number) => (LOADER === 'wrk' ? Math.max(1, Math.round(seconds)) : seconds);

/** BENCH_CONNECTIONS: connections of every load (10 by default). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
if (!Number.isSafeInteger(CONNECTIONS) || CONNECTIONS < 1)
  throw new Error('BENCH_CONNECTIONS is a whole number from 1');

/**
 * BENCH_THREADS: wrk's threads (1 by default: a core at most, as autocannon). Two let the generator
 * take both cores when the server leaves them: what a node of two workers needs to show more than
 * one can (docs/benchmarks.md). With autocannon it stays 1.
 */
export const THREADS = Number(process.env.BENCH_THREADS ?? 1);
if (!Number.isSafeInteger(THREADS) || THREADS < 1 || (THREADS > 1 && LOADER !== 'wrk'))
  throw new Error('BENCH_THREADS is a whole number from 1, above 1 only with BENCH_LOADER=wrk');

/** Runs the load generator against one URL: fixed connections and duration, no pipelining. */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  return LOADER === 'wrk' ? wrk(url, options) : cannon(url, options);
}

async function cannon(url: string, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? CONNECTIONS,
    duration: options.seconds ?? 10,
    headers: options.headers ?? {},
  });
  return {
    rps: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const run = promisify(execFile);

/** wrk's durations ("850.12us", "1.23ms", "2.01s") in milliseconds. */
function millis(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) throw new Error(`wrk printed a latency it cannot be read from: ${text}`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
  return Number((Number(match[1]) * scale).toFixed(2));
}

/**
 * wrk with BENCH_THREADS threads, for whole seconds. Its non-2xx count is of
 * statuses from 400 on (wrk counts no others), where autocannon's is of every status but 2xx.
 */
async function wrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const seconds = loadSeconds(options.seconds ?? 10);
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = [
    `-t${THREADS}`,
    `-c${options.connections ?? CONNECTIONS}`,
    `-d${seconds}s`,
    '--latency',
    ...headers,
    url,
  ];
  const { stdout } = await run(process.env.BENCH_WRK ?? 'wrk', args, { timeout: (seconds + 30) * 1000 });
  const figure = (pattern: RegExp) => pattern.exec(stdout)?.[1];
  if (figure(/(\d+) requests in/) === undefined) throw new Error(`wrk printed no result: ${stdout.slice(0, 300)}`);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    rps: Math.round(Number(figure(/Requests\/sec:\s+([\d.]+)/))),
    p99Ms: millis(figure(/^\s+99%\s+(\S+)/m) ?? ''),
    errors: socketErrors ? socketErrors.slice(1).reduce((n, count) => n + Number(count), 0) : 0,
    non2xx: Number(figure(/Non-2xx or 3xx responses: (\d+)/) ?? 0),
  };
}
