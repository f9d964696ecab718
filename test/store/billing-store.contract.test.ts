import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';

/** Campaign claims, provider settings and idempotency keys, on every backend. */
describe.each(backends())('billing storage on $name', (backend) => {
  let store: Store;
  let shopId: number;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    shopId = (
      await store.createShop(
        newShop('acme'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  it('takes claims up to the limit, atomically, and gives them back', async () => {
    const campaign = await store.createCampaign(shopId, {
      name: 'Winback',
      discount_code: null,
      max_claims_per_customer: 2,
    });
    expect(campaign.max_claims_per_customer).toBe(2);
    const tries = await Promise.all(Array.from({ length: 6 }, () => store.claimCampaign(shopId, campaign.id, 100, 2)));
    expect(tries.filter(Boolean)).toHaveLength(2);
    expect(await store.campaignClaims(shopId, campaign.id, 100)).toBe(2);
    expect(await store.campaignClaims(shopId, campaign.id, 101)).toBe(0);
    await store.releaseCampaignClaim(shopId, campaign.id, 100);
    expect(await store.claimCampaign(shopId, campaign.id, 100, 2)).toBe(true);
    expect(await store.claimCampaign(shopId, campaign.id, 100, 2)).toBe(false);
    // A raised limit lets the customer claim again; claims made stay counted.
    expect(await store.updateCampaign(shopId, campaign.id, { max_claims_per_customer: 3 })).toMatchObject({
      max_claims_per_customer: 3,
      name: 'Winback',
    });
    expect(await store.claimCampaign(shopId, campaign.id, 100, 3)).toBe(true);
    expect(await store.updateCampaign(shopId, 999, { name: 'x' })).toBeNull();
  });

  it("stores a shop's billing provider, one row per shop", async () => {
    expect(await store.getBillingProvider(shopId)).toBeNull();
    await store.putBillingProvider(shopId, {
      type: 'remote',
      base_url: 'https://api.example',
      api_version: '2021-11',
      api_token: 'v1.sealed',
    });
    await store.putBillingProvider(shopId, {
      type: 'remote',
      base_url: 'https://api2.example',
      api_version: '2021-11',
      api_token: 'v1.other',
    });
    expect(await store.getBillingProvider(shopId)).toMatchObject({
      shop_id: shopId,
      type: 'remote',
      base_url: 'https://api2.example',
      api_token: 'v1.other',
    });
    expect((await store.listBillingProviders()).map((r) => r.shop_id)).toEqual([shopId]);
  });

  it('hands an idempotency key to one request, replays it when done, and lets a failed one be taken over', async () => {
    const claims = await Promise.all([1, 2, 3].map(() => store.claimIdempotencyKey(shopId, 'k1', 'h1', 60_000)));
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'busy')).toHaveLength(2);
    expect(await store.claimIdempotencyKey(shopId, 'k1', 'other', 60_000)).toEqual({ state: 'conflict' });
    await store.finishIdempotencyKey(shopId, 'k1', '{"kind":"created"}');
    expect(await store.claimIdempotencyKey(shopId, 'k1', 'h1', 60_000)).toEqual({
      state: 'done',
      outcome: '{"kind":"created"}',
    });

    // Nothing written: the key is free again. Maybe written: the next holder must look first.
    expect(await store.claimIdempotencyKey(shopId, 'k2', 'h2', 60_000)).toEqual({ state: 'claimed', resumed: false });
    await store.abandonIdempotencyKey(shopId, 'k2', false);
    expect(await store.claimIdempotencyKey(shopId, 'k2', 'h2', 60_000)).toEqual({ state: 'claimed', resumed: false });
    await store.abandonIdempotencyKey(shopId, 'k2', true);
    const retries = await Promise.all([1, 2].map(() => store.claimIdempotencyKey(shopId, 'k2', 'h2', 60_000)));
    expect(retries).toEqual(expect.arrayContaining([{ state: 'claimed', resumed: true }, { state: 'busy' }]));
    // A holder that died (no answer for longer than the stale limit) is taken over the same way.
    expect(await store.claimIdempotencyKey(shopId, 'k2', 'h2', -1)).toEqual({ state: 'claimed', resumed: true });
  });
});
