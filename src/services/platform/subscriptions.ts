import { WEBHOOK_CREATE, WEBHOOK_DELETE, WEBHOOK_TOPICS, WEBHOOKS_LIST } from '../../domain/platform/queries.js';
import type { PlatformWebhook } from '../../domain/platform/types.js';
import { PlatformError, type GraphqlClient } from './graphql.js';
import { pagesOf } from './pages.js';

interface Subscription {
  id: string;
  topic: string;
  uri?: string | null;
}

async function existing(gql: GraphqlClient): Promise<Subscription[]> {
  const found: Subscription[] = [];
  for await (const nodes of pagesOf(gql, WEBHOOKS_LIST, 'webhookSubscriptions'))
    found.push(...(nodes as unknown as Subscription[]));
  return found;
}

/**
 * Subscribes every topic Rebound applies, to `callback`. Subscriptions already there (the app's
 * own, read with `webhookSubscriptions`) are reused, so a second sync creates no duplicate.
 */
export async function ensureWebhooks(
  gql: GraphqlClient,
  callback: string,
  known: PlatformWebhook[],
): Promise<PlatformWebhook[]> {
  const present = await existing(gql);
  const made: PlatformWebhook[] = [];
  for (const topic of WEBHOOK_TOPICS) {
    const same = present.find((s) => s.topic === topic && (s.uri ?? '') === callback) ?? null;
    if (same) {
      made.push({ topic, id: same.id });
      continue;
    }
    type Created = { webhookSubscriptionCreate: { webhookSubscription: Subscription | null; userErrors: unknown[] } };
    const data = await gql.request<Created>(WEBHOOK_CREATE, { topic, uri: callback });
    const created = data.webhookSubscriptionCreate.webhookSubscription;
    if (!created) throw new PlatformError(`the platform refused the ${topic} webhook subscription`);
    made.push({ topic, id: created.id });
  }
  // Subscriptions this connection made earlier to another callback (a moved public URL) go.
  for (const old of known)
    if (!made.some((m) => m.id === old.id) && present.some((p) => p.id === old.id)) await removeWebhook(gql, old.id);
  return made;
}

export async function removeWebhook(gql: GraphqlClient, id: string): Promise<void> {
  await gql.request(WEBHOOK_DELETE, { id });
}
