import type { WidgetConfig } from './config.js';

/** One event of `POST /api/v1/analytics/track`. */
export interface TrackedEvent {
  type: 'impression' | 'click' | 'add_to_cart';
  source: string;
  product_id?: number;
  variant_id?: number;
  /** A stored widget's id: the event is also sent under the source `widget:<id>`. */
  widget?: number;
}

/**
 * Each event of a stored widget goes out twice: under `widget:<id>` and under the answer's own
 * source, so insights show both. The answer's own comes second: an order attributed by the
 * latest click still goes to the ruleset or list.
 */
function expand(events: TrackedEvent[]): Omit<TrackedEvent, 'widget'>[] {
  return events.flatMap(({ widget, ...event }) =>
    widget === undefined ? [event] : [{ ...event, source: `widget:${widget}` }, event],
  );
}

/** Where and as whom events are sent: the first widget's settings serve the page's cart tagging too. */
export interface TrackTarget {
  key: string;
  api: string;
  uuid: string;
  customerId: string | null;
}

export function targetOf(config: WidgetConfig, uuid: string): TrackTarget {
  return { key: config.key, api: config.api, uuid, customerId: config.customerId };
}

/**
 * The visitor's cart on the platform's storefront: its `cart` cookie (readable by the page, unlike a
 * session cookie) holds `<token>?key=<key>`, URL-encoded. Only the token goes out: it is what the
 * order will carry, while the key would let its holder change the cart. Null before the first add.
 */
export function cartToken(cookies: string = document.cookie): string | null {
  for (const pair of cookies.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== 'cart') continue;
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value that is not URL-encoded is taken as it is.
    }
    const token = value.split('?', 1)[0]!;
    return token !== '' && token.length <= 255 ? token : null;
  }
  return null;
}

/**
 * Sends events as a beacon: a `text/plain` JSON body (CORS-simple, no preflight) that the browser
 * delivers even when the page is being left, as after a click. Never throws.
 */
export function sendEvents(target: TrackTarget, events: TrackedEvent[]): void {
  if (events.length === 0) return;
  try {
    const cart = cartToken();
    const who = {
      uuid: target.uuid,
      ...(target.customerId ? { shop_customer_id: target.customerId } : {}),
      ...(cart ? { cart_token: cart } : {}),
    };
    const body = JSON.stringify({ events: expand(events).map((e) => ({ ...e, ...who })) });
    const url = `${target.api}/api/v1/analytics/track?key=${encodeURIComponent(target.key)}`;
    const blob = new Blob([body], { type: 'text/plain;charset=UTF-8' });
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, blob)) return;
    void fetch(url, {
      method: 'POST',
      body,
      keepalive: true,
      credentials: 'omit',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    }).catch(() => undefined);
  } catch {
    // Tracking is never worth breaking the page for.
  }
}

/**
 * Calls `seen` once, when at least half of the element has been on screen (or at once without IntersectionObserver).
 */
export function whenVisible(element: Element, seen: () => void): void {
  if (typeof IntersectionObserver !== 'function') {
    seen();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      seen();
    },
    { threshold: 0.5 },
  );
  observer.observe(element);
}
