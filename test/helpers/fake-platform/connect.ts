import { createHmac } from 'node:crypto';
import type { TestApp } from '../app.js';
import { TEST_SECRET_KEY } from '../billing.js';
import type { FakePlatform } from './server.js';

/** The app's client secret on the fake platform: it signs the webhooks. */
export const PLATFORM_WEBHOOK_SECRET = 'fake-platform-client-secret-0123';

/** Environment of an app that may call the fake platform on loopback and polls it quickly. */
export const PLATFORM_ENV = {
  REBOUND_SECRET_KEY: TEST_SECRET_KEY,
  REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
  REBOUND_PLATFORM_POLL_MS: '10',
  REBOUND_PUBLIC_URL: 'https://rebound.example',
};

export function connectBody(fake: FakePlatform, extra: Record<string, unknown> = {}) {
  return {
    shop_domain: 'acme.myshopify.com',
    access_token: fake.token,
    api_version: '2025-10',
    webhook_secret: PLATFORM_WEBHOOK_SECRET,
    api_url: fake.apiUrl,
    ...extra,
  };
}

/** Connects the shop to the fake and waits for the full sync to end. */
export async function connectAndSync(t: TestApp, handle: string, fake: FakePlatform) {
  const res = await t.admin('PUT', `/admin/v1/shops/${handle}/platform`, connectBody(fake));
  if (res.statusCode !== 200) throw new Error(`connect failed: ${res.body}`);
  await t.services.platform.idle();
  return (await t.admin('GET', `/admin/v1/shops/${handle}/platform`)).json().platform;
}

let webhookSeq = 0;

/** Delivers a webhook as the platform does: signed with the client secret, topic and id in its headers. */
export async function deliver(t: TestApp, handle: string, topic: string, payload: unknown) {
  const res = await queueWebhook(t, handle, topic, payload);
  await t.services.storefrontSync.applyPending();
  return res;
}

/** Sends a webhook signed as the platform signs it; it is queued, not yet applied. */
export async function queueWebhook(t: TestApp, handle: string, topic: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const res = await t.app.inject({
    method: 'POST',
    url: `/webhooks/shop/${handle}`,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-webhook-id': `hook-${++webhookSeq}-${Date.now()}`,
      'x-shopify-hmac-sha256': createHmac('sha256', PLATFORM_WEBHOOK_SECRET).update(body).digest('base64'),
    },
    payload: body,
  });
  return res;
}
