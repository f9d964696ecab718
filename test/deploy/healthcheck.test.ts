import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'healthcheck.mjs');

/**
 * The image's HEALTHCHECK, run as Docker runs it: the container's environment, exit code 0 or 1. Not
 * spawnSync: the server it asks runs on this test's event loop.
 */
function healthcheck(env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, [SCRIPT], { env: { PATH: process.env.PATH ?? '', ...env } });
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('the container health check', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = req.url === '/readyz' ? 200 : 404;
      res.end();
    });
    // 127.0.0.2: a loopback address Linux answers on, which is not 127.0.0.1.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('asks the address HOST names, when it is one address', async () => {
    expect(await healthcheck({ PORT: String(port), HOST: '127.0.0.2' })).toBe(0);
  });

  it('asks loopback when the server is on every interface, and fails when nothing answers there', async () => {
    expect(await healthcheck({ PORT: String(port), HOST: '0.0.0.0' })).toBe(1);
    expect(await healthcheck({ PORT: String(port) })).toBe(1);
  });
});
