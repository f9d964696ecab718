import type { Services } from '../compose.js';
import type { PlatformSync } from '../domain/platform/types.js';

const STEPS = ['products', 'collections', 'customers', 'orders'] as const;
const WIDTH = 24;

/** One line of progress: a bar over the sync's steps, its phase and what it imported so far. */
export function progressLine(sync: PlatformSync): string {
  const reached = STEPS.filter((step) => sync.counts[step] > 0).length;
  const done =
    sync.phase === 'done'
      ? 5
      : sync.phase === 'subscribing'
        ? 4
        : sync.mode === 'reconcile'
          ? sync.phase === 'queued'
            ? 0
            : 2
          : reached;
  const filled = Math.round((done / 5) * WIDTH);
  const counts = STEPS.map((step) => `${step} ${sync.counts[step].toLocaleString('en-US')}`).join(' · ');
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${sync.mode} ${sync.phase.padEnd(11)} ${counts}`;
}

/**
 * `rebound connect <shop> --domain … --token …` (docs/operations.md, "The CLI"): connects the shop
 * to its storefront platform (or, with --reconcile, reconciles it), runs the sync in this process
 * and shows its progress until it ends. Answers the exit code: 0 when the sync is done.
 */
export async function connectCommand(
  services: Services,
  handle: string,
  options: {
    domain?: string;
    token?: string;
    'api-version'?: string;
    'webhook-secret'?: string;
    'api-url'?: string;
    reconcile?: boolean;
  },
  write: (text: string) => void,
  tty: boolean,
): Promise<number> {
  const shop = await services.shops.requireShop(handle);
  if (options.reconcile) await services.platform.requestSync(shop.id, 'reconcile');
  else {
    await services.platform.connect(shop.id, {
      shop_domain: options.domain,
      ...(options.token !== undefined ? { access_token: options.token } : {}),
      api_version: options['api-version'] ?? '2025-10',
      ...(options['webhook-secret'] !== undefined ? { webhook_secret: options['webhook-secret'] } : {}),
      ...(options['api-url'] !== undefined ? { api_url: options['api-url'] } : {}),
    });
  }
  let last = '';
  const show = async () => {
    const sync = (await services.platform.view(shop.id)).sync;
    if (!sync) return;
    const line = progressLine(sync);
    if (line === last) return;
    last = line;
    write(tty ? `\r${line}` : `${line}\n`);
  };
  const timer = setInterval(() => void show().catch(() => undefined), 250);
  try {
    await services.platform.idle();
  } finally {
    clearInterval(timer);
  }
  await show();
  const view = await services.platform.view(shop.id);
  if (tty) write('\n');
  if (view.sync?.phase !== 'done') {
    write(`Sync failed: ${view.sync?.error ?? 'unknown error'} (connection ${view.status}).\n`);
    return 1;
  }
  write(`Connected ${view.shop_domain}: ${view.webhooks.length} webhook subscriptions, status ${view.status}.\n`);
  return 0;
}
