import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { type Running, startProcess } from './processes.js';

/** An answer as it came: status, header lines in order, body. */
export interface RawAnswer {
  status: number;
  /** Header lines as sent, in order. */
  headers: [string, string][];
  body: Buffer;
}

/** One GET as the load generators send it (no Accept-Encoding), with the header lines as they came. */
export function rawGet(url: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

/**
 * The ceiling must send what the server sends, header lines included, or the ratio compares
 * different work. Date changes every second, the remaining count every request, the connection
 * line with `agent: false`: those are compared by name only.
 */
export function sameAnswer(name: string, server: RawAnswer, ceiling: RawAnswer): void {
  const varying = new Set(['date', 'x-ratelimit-remaining', 'connection', 'keep-alive']);
  const lines = (a: RawAnswer) =>
    a.headers.map(([n, v]) => (varying.has(n.toLowerCase()) ? n.toLowerCase() : `${n.toLowerCase()}: ${v}`));
  const [ours, bare] = [lines(server).join('\n'), lines(ceiling).join('\n')];
  if (ours !== bare || !server.body.equals(ceiling.body))
    throw new Error(`${name}: the ceiling does not send the same answer\n${ours}\n---\n${bare}`);
}

/** An answer the ceiling sends for the paths starting with `prefix` (or for every path). */
export interface CeilingRoute {
  name: string;
  prefix: string;
  answer: RawAnswer;
}

/**
 * Starts the bare node:http server (`ceiling-server.mjs`) sending these answers' bytes and header
 * lines, each for the paths of its prefix, the first for any other; `workers` processes behind one
 * port when the server compared runs as many. Writes the answers to files in `dir`.
 */
export async function startCeiling(dir: string, routes: readonly CeilingRoute[], workers = 1): Promise<Running> {
  const files = routes.map((route) => {
    const body = join(dir, `${route.name}.body`);
    writeFileSync(body, route.answer.body);
    writeFileSync(`${body}.headers`, JSON.stringify(route.answer.headers));
    return { prefix: route.prefix, body, headers: `${body}.headers` };
  });
  const args = [files[0]!.body, files[0]!.headers, ...files.flatMap((f) => ['--route', f.prefix, f.body, f.headers])];
  const ceiling = await startProcess(
    ['bench/lib/ceiling-server.mjs', ...args],
    { CEILING_WORKERS: String(workers) },
    0,
    routes[0]!.prefix,
  );
  try {
    for (const route of routes) sameAnswer(route.name, route.answer, await rawGet(`${ceiling.url}${route.prefix}`));
  } catch (error) {
    await ceiling.stop(); // a ceiling refused is not left running
    throw error;
  }
  return ceiling;
}
