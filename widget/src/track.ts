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
 * Sends events as a beacon: a `text/plain` JSON body (CORS-simple, no preflight) that the browser
 * delivers even when the page is being left, as after a click. Never throws.
 */
export function sendEvents(target: TrackTarget, events: TrackedEvent[]): void {
  if (events.length === 0) return;
  try {
    const who = target.customerId ? { uuid: target.uuid, shop_customer_id: target.customerId } : { uuid: target.uuid };
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

/** Calls `seen` once, when at least half of the element has been on screen (or at once without IntersectionObserver). */
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
