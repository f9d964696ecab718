import type { CardProduct } from './api.js';
import type { TrackedEvent } from './track.js';

/** The line-item property that carries a recommendation's source into the order. */
export const SOURCE_PROPERTY = '_rebound_source';
const STORAGE_KEY = 'rebound_sources';
const KEEP = 30;
const MAX_AGE_MS = 24 * 3_600_000;
const CART_ADD = /\/cart\/add(?:\.js)?$/;

interface Remembered {
  /** Product id, its variant ids, the source, when (epoch ms). */
  p: number;
  v: number[];
  s: string;
  t: number;
  /** The stored widget the click came from, when it was one. */
  w?: number;
}

function load(): Remembered[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? (parsed as Remembered[]).filter((r) => r && typeof r.s === 'string' && Date.now() - r.t < MAX_AGE_MS)
      : [];
  } catch {
    return [];
  }
}

/** Remembers which answer a clicked product came from, so the cart can carry it (a day at most). */
export function rememberClick(product: CardProduct, source: string, widget: number | null = null): void {
  try {
    const kept = load().filter((r) => r.p !== product.id);
    const variants = product.variants.map((v) => v.id).filter((id) => typeof id === 'number');
    kept.unshift({ p: product.id, v: variants, s: source, t: Date.now(), ...(widget !== null ? { w: widget } : {}) });
    localStorage.setItem(STORAGE_KEY, JSON.stringify(kept.slice(0, KEEP)));
  } catch {
    // Storage can be unavailable: the click is still tracked, the cart line is just not tagged.
  }
}

/** The source of a recommended product or variant the visitor clicked, or null. */
export function sourceFor(
  id: number | string,
): { source: string; productId: number; variantId: number | null; widget: number | null } | null {
  const n = Number(id);
  if (!Number.isSafeInteger(n)) return null;
  const hit = load().find((r) => r.v.includes(n) || r.p === n);
  return hit
    ? {
        source: hit.s,
        productId: hit.p,
        variantId: hit.v.includes(n) ? n : null,
        widget: typeof hit.w === 'number' ? hit.w : null,
      }
    : null;
}

/** The add-to-cart event of a tagged line. */
function addEvent(hit: NonNullable<ReturnType<typeof sourceFor>>): TrackedEvent {
  return {
    type: 'add_to_cart',
    source: hit.source,
    product_id: hit.productId,
    ...(hit.variantId !== null ? { variant_id: hit.variantId } : {}),
    ...(hit.widget !== null ? { widget: hit.widget } : {}),
  };
}

/** Tags one cart item (`{id, quantity, properties}`) in place; the event to report, when tagged. */
function tagItem(item: Record<string, unknown>): TrackedEvent | null {
  const hit = item && (typeof item.id === 'number' || typeof item.id === 'string') ? sourceFor(item.id) : null;
  if (!hit) return null;
  const properties = (item.properties && typeof item.properties === 'object' ? item.properties : {}) as Record<
    string,
    unknown
  >;
  if (properties[SOURCE_PROPERTY] === undefined) properties[SOURCE_PROPERTY] = hit.source;
  item.properties = properties;
  return addEvent(hit);
}

/** Form-encoded or FormData fields: `id` names the variant, `properties[…]` the line's properties. */
function tagFields(fields: {
  get(name: string): unknown;
  set(name: string, value: string): void;
  has(name: string): boolean;
}): TrackedEvent | null {
  const id = fields.get('id');
  const hit = typeof id === 'string' ? sourceFor(id) : null;
  if (!hit) return null;
  const name = `properties[${SOURCE_PROPERTY}]`;
  if (!fields.has(name)) fields.set(name, hit.source);
  return addEvent(hit);
}

/** A cart-add request body with the source added to each line that came from a recommendation. */
export function tagBody(body: unknown, report: (events: TrackedEvent[]) => void): unknown {
  const events: TrackedEvent[] = [];
  let out = body;
  if (typeof body === 'string' && body.trim().startsWith('{')) {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const items = Array.isArray(parsed.items) ? (parsed.items as Record<string, unknown>[]) : [parsed];
    for (const item of items) {
      const event = tagItem(item);
      if (event) events.push(event);
    }
    out = JSON.stringify(parsed);
  } else if (typeof body === 'string' || body instanceof URLSearchParams) {
    const fields = new URLSearchParams(body);
    const event = tagFields(fields);
    if (event) events.push(event);
    out = typeof body === 'string' ? fields.toString() : fields;
  } else if (typeof FormData === 'function' && body instanceof FormData) {
    const event = tagFields(body as unknown as Parameters<typeof tagFields>[0]);
    if (event) events.push(event);
  }
  if (events.length > 0) report(events);
  return out;
}

const isCartAdd = (url: string) => {
  try {
    return CART_ADD.test(new URL(url, location.href).pathname);
  } catch {
    return false;
  }
};

/**
 * Makes the storefront's add-to-cart carry `_rebound_source` for products the visitor reached
 * through a widget: `/cart/add` form posts, and `fetch` / XMLHttpRequest calls to `/cart/add(.js)`
 * (JSON, form-encoded or FormData). Installed once per page; a failure leaves the request as it was.
 */
export function installCartTagging(report: (events: TrackedEvent[]) => void): void {
  const safely = (body: unknown) => {
    try {
      return tagBody(body, report);
    } catch {
      return body;
    }
  };
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !isCartAdd(form.action)) return;
      try {
        const fields = new FormData(form);
        const tagged = tagFields(fields as unknown as Parameters<typeof tagFields>[0]);
        if (!tagged) return;
        if (!form.querySelector(`input[name="properties[${SOURCE_PROPERTY}]"]`)) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = `properties[${SOURCE_PROPERTY}]`;
          input.value = tagged.source;
          form.appendChild(input);
        }
        report([tagged]);
      } catch {
        /* leave the form as it is */
      }
    },
    true,
  );

  const originalFetch = window.fetch;
  if (typeof originalFetch === 'function') {
    window.fetch = function fetchWithSource(input: RequestInfo | URL, init?: RequestInit) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (init && init.body != null && isCartAdd(url)) init = { ...init, body: safely(init.body) as BodyInit };
      return originalFetch.call(this, input, init);
    };
  }
  const { open, send } = XMLHttpRequest.prototype;
  const urls = new WeakMap<XMLHttpRequest, string>();
  XMLHttpRequest.prototype.open = function openWithUrl(this: XMLHttpRequest, ...args: unknown[]) {
    urls.set(this, String(args[1]));
    return (open as (...a: unknown[]) => void).apply(this, args);
  } as typeof open;
  XMLHttpRequest.prototype.send = function sendWithSource(
    this: XMLHttpRequest,
    body?: Document | XMLHttpRequestBodyInit | null,
  ) {
    const url = urls.get(this);
    return send.call(this, url && body != null && isCartAdd(url) ? (safely(body) as XMLHttpRequestBodyInit) : body);
  };
}
