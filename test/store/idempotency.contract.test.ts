import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';

/** One table of idempotency keys behind two uses: the ledger's one-time purchase and a remote provider's writes. */
describe.each(backends())('idempotency keys on $name', (backend) => {
  let store: Store;
  let shopId: number;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    shopId = (
      await store.createShop(
        newShop('keys'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  const write = (outcome: unknown) => () => ({ outcome, docs: [] });

  it('creates a one-time purchase once per key: the same request replays, another conflicts', async () => {
    const first = await store.createOnetime(shopId, { key: 'k', hash: 'h' }, write({ n: 1 }));
    expect(first).toEqual({ state: 'done', outcome: '{"n":1}', replayed: false });
    expect(await store.createOnetime(shopId, { key: 'k', hash: 'h' }, write({ n: 2 }))).toEqual({
      state: 'done',
      outcome: '{"n":1}',
      replayed: true,
    });
    expect(await store.createOnetime(shopId, { key: 'k', hash: 'other' }, write({ n: 3 }))).toEqual({
      state: 'conflict',
    });
    expect(await store.createOnetime(shopId, null, write({ n: 4 }))).toEqual({
      state: 'done',
      outcome: '{"n":4}',
      replayed: false,
    });
  });

  it('shares keys between the two uses: a remote answer replays locally, a held key is busy', async () => {
    expect(await store.claimIdempotencyKey(shopId, 'held', 'h', 60_000)).toEqual({ state: 'claimed', resumed: false });
    expect(await store.createOnetime(shopId, { key: 'held', hash: 'h' }, write({ n: 1 }))).toEqual({ state: 'busy' });
    await store.finishIdempotencyKey(shopId, 'held', '{"remote":true}');
    expect(await store.createOnetime(shopId, { key: 'held', hash: 'h' }, write({ n: 1 }))).toEqual({
      state: 'done',
      outcome: '{"remote":true}',
      replayed: true,
    });
    await store.createOnetime(shopId, { key: 'local', hash: 'h' }, write({ n: 2 }));
    expect(await store.claimIdempotencyKey(shopId, 'local', 'h', 60_000)).toEqual({
      state: 'done',
      outcome: '{"n":2}',
    });
    expect(await store.claimIdempotencyKey(shopId, 'local', 'x', 60_000)).toEqual({ state: 'conflict' });
  });
});
