import { listUrl, type WidgetConfig } from './config.js';

/** Long enough for a cold API, short enough that a storefront never waits on a dead one. */
export const TIMEOUT_MS = 4000;

/** The fields of a Product the cards use (the API sends the full product). */
export interface CardProduct {
  id: number;
  title: string;
  handle: string;
  vendor?: string;
  image: { src: string; alt: string | null } | null;
  variants: {
    id: number;
    price: string;
    compare_at_price: string | null;
    inventory_management: string | null;
    inventory_policy: string;
    inventory_quantity: number;
  }[];
}

/** A list's products and the `metadata.source` that names the answer (null when the API sent none). */
export interface Answer {
  products: CardProduct[];
  source: string | null;
}

function isProduct(value: unknown): value is CardProduct {
  const p = value as CardProduct | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.id === 'number' &&
    typeof p.title === 'string' &&
    typeof p.handle === 'string' &&
    Array.isArray(p.variants)
  );
}

/** The products of a list or ruleset; null on any failure (network, timeout, error status, odd body). */
export async function fetchProducts(config: WidgetConfig, uuid: string): Promise<Answer | null> {
  const controller = typeof AbortController === 'function' ? new AbortController() : null;
  const timer = setTimeout(() => controller?.abort(), TIMEOUT_MS);
  try {
    // A simple GET without custom headers: no CORS preflight, and no cookies sent.
    const response = await fetch(listUrl(config, uuid), {
      credentials: 'omit',
      ...(controller ? { signal: controller.signal } : {}),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: unknown; metadata?: { source?: unknown } };
    if (!Array.isArray(body.data)) return null;
    const source = typeof body.metadata?.source === 'string' ? body.metadata.source : null;
    return { products: body.data.filter(isProduct), source };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reports a product view: a CORS-simple POST (parameters in the query string, no body, so no
 * preflight) with keepalive, so it outlives the page. Resolves when answered or failed, never rejects.
 */
export function reportView(config: WidgetConfig, handle: string, uuid: string): Promise<void> {
  const params = new URLSearchParams({
    key: config.key,
    subject: 'user',
    verb: 'viewed',
    noun: 'product',
    shop_product_handle: handle,
    uuid,
  });
  if (config.customerId) params.set('shop_customer_id', config.customerId);
  try {
    const sent = fetch(`${config.api}/api/v1/analytics/event?${params.toString()}`, {
      method: 'POST',
      keepalive: true,
      credentials: 'omit',
    });
    const timeout = new Promise<void>((resolve) => {
      setTimeout(resolve, TIMEOUT_MS);
    });
    return Promise.race([
      sent.then(
        () => undefined,
        () => undefined,
      ),
      timeout,
    ]);
  } catch {
    // fetch itself can throw synchronously (blocked by a page's policy): a lost view is not worth an error.
    return Promise.resolve();
  }
}
