import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { connectBody, PLATFORM_ENV } from '../../helpers/fake-platform/connect.js';
import { FakePlatform, type FakePlatformOptions } from '../../helpers/fake-platform/server.js';
import { storedRows } from '../../helpers/stored-rows.js';

/** Throttling and faults of the platform (docs/api.md, "Connecting the platform"), each against the fake. */
describe.each(backends())('platform sync under throttling and faults on $name', (backend) => {
  let t: TestApp;
  let fake: FakePlatform;
  let shop = 0;
  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));
  afterEach(() => fake?.stop());

  /** A fresh shop connected to a fresh fake; answers the finished sync. */
  async function syncWith(
    options: FakePlatformOptions,
    before: (fake: FakePlatform) => void = () => undefined,
    body: Record<string, unknown> = {},
  ) {
    fake = await new FakePlatform({
      shape: { products: 6, collections: 2, customers: 3, orders: 5 },
      ...options,
    }).start();
    before(fake);
    const handle = `faults-${++shop}`;
    await t.createShop(handle);
    const res = await t.admin('PUT', `/admin/v1/shops/${handle}/platform`, connectBody(fake, body));
    expect(res.statusCode, res.body).toBe(200);
    await t.services.platform.idle();
    return { handle, platform: (await t.admin('GET', `/admin/v1/shops/${handle}/platform`)).json().platform };
  }

  it('waits while the bucket holds fewer points than the next query costs, so it is never throttled', async () => {
    const { platform } = await syncWith({ maximumAvailable: 50, restoreRate: 200, queryCost: 20 });
    expect(platform.sync).toMatchObject({
      phase: 'done',
      counts: { products: 6, collections: 2, customers: 3, orders: 5 },
    });
    expect(fake.stats.requests).toBeGreaterThan(10);
    expect(fake.stats.throttled).toBe(0);
  });

  it('retries a THROTTLED answer', async () => {
    const { platform } = await syncWith({}, (f) => f.faults.push('throttled'));
    expect(fake.stats.throttled).toBe(1);
    expect(platform.sync.phase).toBe('done');
  });

  it('retries 429 after Retry-After, and 5xx with backoff', async () => {
    const { platform } = await syncWith({}, (f) => f.faults.push(429, 500, 503));
    expect(fake.faults).toEqual([]);
    expect(platform.sync).toMatchObject({ phase: 'done', counts: { products: 6 } });
  });

  it('ends the sync failed with the platform error code when the bulk operation fails', async () => {
    const { platform } = await syncWith({}, (f) => {
      f.failNextBulk = 'INTERNAL_SERVER_ERROR';
    });
    expect(platform.sync.phase).toBe('failed');
    expect(platform.sync.error).toContain('INTERNAL_SERVER_ERROR');
    expect(platform.status).toBe('connected');
  });

  it('ends the sync failed, and the process serving, when the export file is refused', async () => {
    // The body of a refused file was destroyed unread, with no listener for the error that makes:
    // uncaught, it ended the process (here, the test run's unhandled error).
    const { handle, platform } = await syncWith({}, (f) => {
      f.refuseNextFile = true;
    });
    expect(platform.sync.phase).toBe('failed');
    expect(platform.sync.error).toContain('the export file could not be read (403)');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await t.admin('POST', `/admin/v1/shops/${handle}/platform/sync`, { mode: 'full' })).statusCode).toBe(202);
    await t.services.platform.idle();
    expect((await t.admin('GET', `/admin/v1/shops/${handle}/platform`)).json().platform.sync.phase).toBe('done');
  });

  it('ends a sync failed, not waiting for ever, on a looping cursor or an unknown bulk state', async () => {
    // Followed, a next page with the cursor already answered asked the same page for ever.
    const subscribing = await syncWith({}, (f) => {
      f.repeatCursorOf = 'webhookSubscriptions';
    });
    expect(subscribing.platform.sync).toMatchObject({ phase: 'failed' });
    expect(subscribing.platform.sync.error).toContain('a page of webhookSubscriptions twice');
    expect(fake.stats.operations.get('webhookSubscriptions')).toBe(2);

    const reconciling = await syncWith({});
    fake.repeatCursorOf = 'products';
    expect(
      (await t.admin('POST', `/admin/v1/shops/${reconciling.handle}/platform/sync`, { mode: 'reconcile' })).statusCode,
    ).toBe(202);
    await t.services.platform.idle();
    const after = (await t.admin('GET', `/admin/v1/shops/${reconciling.handle}/platform`)).json().platform;
    expect(after.sync.phase).toBe('failed');
    expect(after.sync.error).toContain('a page of products twice');

    // Polled as under way, a state the platform does not document kept the sync in `exporting`.
    const unknown = await syncWith({}, (f) => {
      f.bulkStatus = 'PAUSED';
    });
    expect(unknown.platform.sync).toMatchObject({ phase: 'failed' });
    expect(unknown.platform.sync.error).toContain('a state Rebound does not know (PAUSED)');
  });

  it('ends a sync failed on a cursor past 4,096 characters, never holding the cursors it followed', async () => {
    const { platform } = await syncWith({}, (f) => {
      f.endless = { field: 'webhookSubscriptions', cursorBytes: 3 * 1024 * 1024 };
    });
    expect(platform.sync.phase).toBe('failed');
    expect(platform.sync.error).toContain('a cursor of webhookSubscriptions longer than 4096 characters');
    expect(fake.stats.operations.get('webhookSubscriptions')).toBe(1);
  });

  it('leaves out an export line that is no object, and ends the sync failed on one that is not JSON', async () => {
    const odd = await syncWith({}, (f) => {
      f.extraProductLines.push('null', '42', '[]');
    });
    expect(odd.platform.sync).toMatchObject({ phase: 'done', counts: { products: 6 } });
    // Past what an export's objects nest (a 1 MB line of brackets), and not JSON: named by line, never quoted.
    for (const line of [
      '{"id": "gid://shopify/Product/99", "title": broken',
      `${'['.repeat(500_000)}${']'.repeat(500_000)}`,
    ]) {
      const { platform } = await syncWith({}, (f) => {
        f.extraProductLines.push(line);
      });
      expect(platform.sync.phase).toBe('failed');
      expect(platform.sync.error).toMatch(/^line \d+ of the export file is not JSON, or nests deeper/);
      expect(platform.sync.error).not.toContain('broken');
    }
  });

  it('keeps a collection whose member was refused, with its other members', async () => {
    // A collection naming a product the sync had refused was refused whole, so one odd product took
    // every collection it belonged to off the shop's pages.
    const { handle, platform } = await syncWith({}, (f) => f.catalog.editProduct(1, { title: '' }));
    expect(platform.sync).toMatchObject({ phase: 'done', counts: { products: 5, collections: 2 } });
    const collections = (await t.admin('GET', `/admin/v1/shops/${handle}/collections`)).json().data;
    const first = collections.find((c: { id: number }) => c.id === 1);
    expect(first.products.map((m: { product_id: number }) => m.product_id)).toEqual([3, 5]);
  });

  it('marks the connection failing once the token is refused three times', async () => {
    const { handle, platform } = await syncWith({}, undefined, { access_token: 'a-token-the-platform-refuses' });
    expect(platform.sync).toMatchObject({ phase: 'failed' });
    expect(platform.sync.error).toContain('refused the access token');
    expect(platform.status).toBe('connected');
    for (const expected of ['connected', 'failing']) {
      expect((await t.admin('POST', `/admin/v1/shops/${handle}/platform/sync`, { mode: 'full' })).statusCode).toBe(202);
      await t.services.platform.idle();
      expect((await t.admin('GET', `/admin/v1/shops/${handle}/platform`)).json().platform.status).toBe(expected);
    }
    // Connecting again with a token the platform takes clears it.
    const again = await t.admin('PUT', `/admin/v1/shops/${handle}/platform`, connectBody(fake));
    expect(again.json().platform.status).toBe('connected');
    await t.services.platform.idle();
    expect((await t.admin('GET', `/admin/v1/shops/${handle}/platform`)).json().platform.sync.phase).toBe('done');
  });
});

/** One shop's platform cannot fill the database every shop shares (docs/operations.md, "Process limits"). */
describe.each(backends())('an export file past the bound on $name', (backend) => {
  let t: TestApp;
  let fake: FakePlatform;
  beforeAll(async () => {
    t = await startApp(backend, { ...PLATFORM_ENV, REBOUND_PLATFORM_EXPORT_MAX_MB: '1' });
  });
  afterAll(async () => {
    await fake?.stop();
    await t.close();
    await backend.cleanup();
  });

  it('ends the sync failed, keeping nothing staged; the next sync of a smaller file goes through', async () => {
    fake = await new FakePlatform({ shape: { products: 6, collections: 2, customers: 3, orders: 5 } }).start();
    // 16 lines of 100 KB: 1.6 MB against 1 MB.
    for (let i = 0; i < 16; i++) fake.extraProductLines.push(JSON.stringify({ filler: 'x'.repeat(100_000) }));
    await t.createShop('export-bound');
    expect((await t.admin('PUT', '/admin/v1/shops/export-bound/platform', connectBody(fake))).statusCode).toBe(200);
    await t.services.platform.idle();
    const { platform } = (await t.admin('GET', '/admin/v1/shops/export-bound/platform')).json();
    expect(platform.sync.phase).toBe('failed');
    expect(platform.sync.error).toContain('larger than 1048576 bytes');
    const staged = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('platform_staging').select('gid').execute(),
    );
    expect(staged).toEqual([]);
    fake.extraProductLines.length = 0;
    expect((await t.admin('POST', '/admin/v1/shops/export-bound/platform/sync', { mode: 'full' })).statusCode).toBe(
      202,
    );
    await t.services.platform.idle();
    expect((await t.admin('GET', '/admin/v1/shops/export-bound/platform')).json().platform.sync).toMatchObject({
      phase: 'done',
      counts: { products: 6 },
    });
  });
});

/** A stop of the process is not held by a platform whose export never ends (docs/operations.md, "Stopping"). */
describe.each(backends())('stopping while a bulk export runs on $name', (backend) => {
  it('ends the sync at its next poll, so the stop goes on to write what is buffered', async () => {
    const t = await startApp(backend, PLATFORM_ENV);
    const fake = await new FakePlatform({ shape: { products: 6, collections: 2, customers: 3, orders: 5 } }).start();
    try {
      fake.bulkStatus = 'RUNNING';
      await t.createShop('stopping');
      expect((await t.admin('PUT', '/admin/v1/shops/stopping/platform', connectBody(fake))).statusCode).toBe(200);
      // Polled as running at least once: the sync is waiting on the platform.
      while ((fake.stats.operations.get('node(id') ?? 0) === 0) await new Promise((r) => setTimeout(r, 10));
      await t.close();
      const stored = await storedRows(t.config.databaseUrl, (db) =>
        db.selectFrom('platform_connections').select('sync').executeTakeFirstOrThrow(),
      );
      expect(JSON.parse(String(stored.sync))).toMatchObject({ phase: 'failed', error: 'the sync was stopped' });
    } finally {
      await fake.stop();
      await backend.cleanup();
    }
  }, 20_000);
});
