import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consoleRoutes } from '../../src/http/routes/console.js';

/** How the server hands out the built console: index.html afresh, hashed assets for a year, a CSP on everything. */
describe('console assets', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rebound-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await app.register(async (web) => consoleRoutes(web, dir));
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at /console and /console/, never cached, with the console CSP', async () => {
    for (const url of ['/console', '/console/']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets as immutable and answers 404 for files that are not there', async () => {
    const asset = await app.inject('/console/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect((await app.inject('/console/assets/missing.js')).statusCode).toBe(404);
    // The compressed copies the build wrote are sent as they are, to a browser that accepts them.
    const br = await app.inject({ url: '/console/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await app.inject({ url: '/console/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['content-encoding']).toBeUndefined();
    expect((await app.inject('/console/../package.json')).statusCode).toBe(404);
  });

  it('says how to build the console when it has not been built', async () => {
    const bare = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await bare.register(async (web) => consoleRoutes(web, join(dir, 'nowhere')));
    for (const url of ['/console', '/console/', '/console/assets/x.js']) {
      const res = await bare.inject(url);
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatch(/npm run build/);
    }
    await bare.close();
  });
});
