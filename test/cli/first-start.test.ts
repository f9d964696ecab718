import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable, redisScope } from '../helpers/redis.js';
import { serveFromSources } from '../helpers/serve.js';

const work = mkdtempSync(join(tmpdir(), 'rebound-first-start-'));
const redis = redisScope();
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await redis.cleanup();
});

/** An operator's first start: no operator token, the demo on. */
function serve(port: number) {
  return serveFromSources({
    ...process.env,
    DATABASE_URL: `sqlite:${join(work, 'rebound.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    REBOUND_DEMO: 'true',
    // The demo seed holds the event loop for seconds: Redis commands meanwhile time out on their timers.
    ...(redisAvailable() ? { REDIS_URL, REDIS_PREFIX: redis.prefix } : {}),
    REBOUND_ADMIN_TOKEN: '',
    REBOUND_PUBLIC_URL: '',
  });
}

describe('a first start that fails', () => {
  it('leaves the operator token and the demo keys to the start that serves, which shows them', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const failed = serve(port);
    expect(await failed.exited).toBe(1);
    blocker.close();
    expect(failed.output()).toContain(`port ${port} on 127.0.0.1 is taken`);
    // Shown by a start that did not serve, they would be the only ones shown.
    expect(failed.output()).not.toContain('Admin token');
    expect(failed.output()).not.toContain('public key');

    const started = serve(0);
    const base = () => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(started.output())?.[1];
    while (!started.output().includes('API docs:')) {
      // No deadline of its own: the test's limit bounds a hang; a slow machine only waits longer.
      if (started.child.exitCode !== null) throw new Error(`server did not start:\n${started.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = /Admin token \(shown once\): (rb_admin_\S+)/.exec(started.output())?.[1];
    const publicKey = /public key: +(rb_pub_\S+)/.exec(started.output())?.[1];
    expect(token).toBeDefined();
    expect(publicKey).toBeDefined();
    const shops = await fetch(`${base()}/admin/v1/shops`, { headers: { authorization: `Bearer ${token}` } });
    expect(shops.status).toBe(200);
    expect(((await shops.json()) as { data: { handle: string }[] }).data.map((s) => s.handle)).toEqual(['demo']);
    const sources = await fetch(`${base()}/api/v1/sources?key=${publicKey}`);
    expect(sources.status).toBe(200);
    // A Redis that answered in time is not reported as down.
    expect(started.output()).not.toContain('redis unavailable');
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 180_000);
});
