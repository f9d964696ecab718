import { TIMEOUT_MS } from './api.js';

/** A stored widget's design (docs/widget.md, "Widgets as data"). */
export interface Design {
  id: number;
  layout: 'grid' | 'carousel';
  cards: number;
  show: { price: boolean; compare_at_price: boolean; vendor: boolean; add_to_cart: boolean };
  style: { accent: string | null; text: string | null; font: string | null };
}

/** What `GET /api/v1/widgets/{id}` answers, as far as the widget reads it. */
export interface StoredWidget extends Design {
  title: string;
  source: { ruleset_id: number } | { list: string; limit: number };
}

const COLOUR = /^#[0-9A-Fa-f]{6}$/;
const LIST = /^[a-z][a-z_]{0,62}$/;
const colour = (value: unknown) => value === null || (typeof value === 'string' && COLOUR.test(value));
const count = (value: unknown, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;

/** Checks an answer before any of it reaches the page: a widget renders nothing rather than something odd. */
function isStoredWidget(value: unknown): value is StoredWidget {
  const w = value as StoredWidget | null;
  if (typeof w !== 'object' || w === null || !count(w.id, Number.MAX_SAFE_INTEGER) || typeof w.title !== 'string')
    return false;
  if (!count(w.cards, 12) || (w.layout !== 'grid' && w.layout !== 'carousel')) return false;
  const source = w.source as Record<string, unknown> | null;
  const sourceOk =
    typeof source === 'object' &&
    source !== null &&
    (count(source.ruleset_id, Number.MAX_SAFE_INTEGER) ||
      (typeof source.list === 'string' && LIST.test(source.list) && count(source.limit, 100)));
  const show = w.show as Record<string, unknown> | null;
  const showOk =
    typeof show === 'object' &&
    show !== null &&
    ['price', 'compare_at_price', 'vendor', 'add_to_cart'].every((k) => typeof show[k] === 'boolean');
  const style = w.style;
  const styleOk =
    typeof style === 'object' &&
    style !== null &&
    colour(style.accent) &&
    colour(style.text) &&
    (style.font === null || typeof style.font === 'string');
  return sourceOk && showOk && styleOk;
}

/** A stored widget's design; null on any failure (network, timeout, error status, odd body). */
export async function fetchStoredWidget(api: string, key: string, id: string): Promise<StoredWidget | null> {
  if (!/^\d{1,15}$/.test(id)) return null;
  const controller = typeof AbortController === 'function' ? new AbortController() : null;
  const timer = setTimeout(() => controller?.abort(), TIMEOUT_MS);
  try {
    const url = `${api}/api/v1/widgets/${id}?key=${encodeURIComponent(key)}`;
    const response = await fetch(url, { credentials: 'omit', ...(controller ? { signal: controller.signal } : {}) });
    if (!response.ok) return null;
    const body = (await response.json()) as { widget?: unknown };
    return isStoredWidget(body.widget) ? body.widget : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
