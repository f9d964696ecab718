import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RawAnswer, rawGet, startCeiling } from '../../bench/lib/ceiling.js';

const dir = mkdtempSync(join(tmpdir(), 'rebound-ceiling-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Processes whose command line names `path` (Linux's /proc): the ceiling servers started with this test's files. */
function processesNaming(path: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

const answer = (body: string, extra: [string, string][]): RawAnswer => ({
  status: 200,
  headers: [
    ['Content-Type', 'application/json; charset=utf-8'],
    ...extra,
    ['Content-Length', String(Buffer.byteLength(body))],
    ['Date', new Date().toUTCString()],
    // As `rawGet` receives it (a connection of its own, closed after the answer).
    ['Connection', 'close'],
  ],
  body: Buffer.from(body),
});

// The benchmarks' ratios mean something only if the bare server sends what the server sent.
describe('the ceiling server', () => {
  const trending = answer('{"data":[1,2,3]}', [['Cache-Control', 'public, max-age=60']]);
  const statics = answer('{"data":[]}', [['X-Cache', 'HIT']]);
  const routes = [
    { name: 'trending', prefix: '/api/v1/products/trending_products', answer: trending },
    { name: 'static', prefix: '/api/v1/products/static', answer: statics },
  ];

  it.each([1, 2])('sends each path its route’s bytes and header lines, from %i process(es)', async (workers) => {
    const ceiling = await startCeiling(dir, routes, workers);
    try {
      const got = await rawGet(`${ceiling.url}/api/v1/products/static?key=k&ids=1,2`);
      expect(got.body.toString()).toBe('{"data":[]}');
      expect(got.headers.find(([n]) => n === 'X-Cache')?.[1]).toBe('HIT');
      const other = await rawGet(`${ceiling.url}/api/v1/custom/id/3?key=k`);
      expect(other.body.toString()).toBe('{"data":[1,2,3]}');
      expect(other.headers.find(([n]) => n === 'Cache-Control')?.[1]).toBe('public, max-age=60');
    } finally {
      await ceiling.stop();
    }
  });

  it('refuses to start when it would not send the answer it was given', async () => {
    // Node chooses the framing itself: a captured chunked answer is not what the bare server sends.
    const chunked = answer('{"data":[]}', [['Transfer-Encoding', 'chunked']]);
    await expect(startCeiling(dir, [{ name: 'static', prefix: '/s', answer: chunked }])).rejects.toThrow(/not send/);
    // …and the server it started for the check is not left running.
    expect(processesNaming(dir)).toEqual([]);
  });
});
