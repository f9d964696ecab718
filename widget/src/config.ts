import { seedNameOf } from '../../src/domain/params/aliases.js';
import type { Design, StoredWidget } from './stored.js';

/** What one widget asks for: a script tag's data attributes, or a stored widget's design (which wins). */
export interface WidgetConfig {
  key: string;
  /** Where the list comes from: `/api/v1/custom/id/{id}` or `/api/v1/products/{name}`, with its own query. */
  path: string;
  /** The endpoint's own query parameters (they win over the context, like ruleset endpoint outputs). */
  ownQuery: [string, string][];
  /** Context parameters sent with the list request (uuid is added at request time). */
  context: [string, string][];
  /** Handle of the page's product, reported once as a view. */
  viewedHandle: string | null;
  /** A viewed-products list: it waits for this page's view, so the page's own product is in it. */
  listsViews: boolean;
  customerId: string | null;
  api: string;
  title: string;
  target: string | null;
  currency: string | null;
  productUrl: string;
  /** Tag the storefront's add-to-cart calls with `_rebound_source` (on unless `data-tag-cart="no"`). */
  tagCart: boolean;
  /** A stored widget's design; null for a widget described by script-tag attributes alone. */
  design: Design | null;
}

const LIST_NAME = /^[a-z][a-z_]{0,62}$/;
const ID_LIST = /^\d{1,19}(,\d{1,19}){0,249}$/;
const DEFAULT_TITLES: Record<string, string> = {
  trending_products: 'Trending now',
  top_sellers: 'Best sellers',
  viewed: 'Recently viewed',
  recently_viewed: 'Recently viewed',
  purchased: 'Buy it again',
  similar_products: 'Similar products',
};

type Attr = (name: string) => string | null;

/** An attribute of the first element that has it (the widget's own element, then its script tag). */
function attrsOf(...elements: (Element | null)[]): Attr {
  return (name) => {
    for (const element of elements) {
      const value = element?.getAttribute(`data-${name}`);
      if (value != null && value.trim() !== '') return value.trim();
    }
    return null;
  };
}

/** The public key: `data-key`, or `key` in the script's own URL (`/widget.js?key=…`, the stored widgets' snippet). */
function keyOf(script: HTMLScriptElement, attr: Attr): string | null {
  const given = attr('key');
  if (given) return given;
  try {
    return new URL(script.src, document.baseURI).searchParams.get('key') || null;
  } catch {
    return null;
  }
}

/** `trending_products`, `/products/trending_products?limit=4` or `/api/v1/products/viewed` → name and query. */
function parseEndpoint(raw: string): { name: string; query: [string, string][] } | null {
  const [pathPart = '', queryPart = ''] = raw.split('?', 2);
  const name = pathPart
    .replace(/^\/+/, '')
    .replace(/^api\/v1\//, '')
    .replace(/^products\//, '')
    .replace(/\/+$/, '');
  if (!LIST_NAME.test(name)) return null;
  const query: [string, string][] = [];
  new URLSearchParams(queryPart).forEach((value, param) => {
    if (param !== 'key') query.push([param, value]);
  });
  return { name, query };
}

function apiOrigin(script: HTMLScriptElement, attr: Attr): string | null {
  const given = attr('api');
  try {
    const url = new URL(given ?? script.src, document.baseURI);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    // data-api may carry a path prefix (a proxy); the script's own src never does.
    return given ? url.href.replace(/\/+$/, '') : url.origin;
  } catch {
    return null;
  }
}

/** Where a key and an API are found: the script tag, and a stored widget's element. */
export function keyAndApi(
  script: HTMLScriptElement,
  holder: Element | null = null,
): { key: string; api: string } | null {
  const attr = attrsOf(holder, script);
  const key = keyOf(script, attr);
  const api = apiOrigin(script, attr);
  return key && api ? { key, api } : null;
}

/**
 * Reads a widget: a script tag's attributes, or a stored widget (its source, title and design
 * win over the attributes; the page context — products, cart, customer — still comes from them).
 * Null when it cannot make a valid request (then the widget renders nothing).
 */
export function readConfig(
  script: HTMLScriptElement,
  stored: StoredWidget | null = null,
  holder: Element | null = null,
): WidgetConfig | null {
  const attr = attrsOf(holder, script);
  const found = keyAndApi(script, holder);
  if (!found) return null;
  const { key, api } = found;
  const ruleset = stored ? ('ruleset_id' in stored.source ? String(stored.source.ruleset_id) : null) : attr('ruleset');
  let path: string;
  let ownQuery: [string, string][] = [];
  let title: string;
  if (stored && 'list' in stored.source) {
    path = `/api/v1/products/${stored.source.list}`;
    ownQuery = [['limit', String(stored.source.limit)]];
    title = DEFAULT_TITLES[stored.source.list] ?? 'Recommended for you';
  } else if (ruleset !== null) {
    if (!/^\d{1,19}$/.test(ruleset)) return null;
    path = `/api/v1/custom/id/${ruleset}`;
    title = 'You may also like';
  } else {
    const endpoint = parseEndpoint(attr('endpoint') ?? '');
    if (!endpoint) return null;
    path = `/api/v1/products/${endpoint.name}`;
    ownQuery = endpoint.query;
    title = DEFAULT_TITLES[endpoint.name] ?? 'Recommended for you';
  }

  const context: [string, string][] = [];
  // A theme's attribute the API would refuse is left out, so the rest of the page still gets its widget; the
  // theme's developer is told which one, once (nothing else the widget does logs).
  const read = (name: string, param: string, pattern: RegExp, what: string, value = attr(name)) => {
    if (value === null) return;
    if (pattern.test(value)) context.push([param, value]);
    else console.warn(`Rebound widget: data-${name}="${value.slice(0, 40)}" is not ${what}; it is left out.`);
  };
  const ids = (name: string, param: string) =>
    read(name, param, ID_LIST, 'a comma list of ids', attr(name)?.replace(/\s+/g, '') ?? null);
  ids('product-ids', 'shop_product_ids');
  ids('variant-ids', 'shop_variant_ids');
  read('cart-subtotal', 'cart_subtotal', /^\d{1,12}(\.\d{1,4})?$/, 'a decimal amount such as 1234.50');
  read('cart-item-count', 'cart_item_count', /^\d{1,9}$/, 'a whole number');
  read('cart-line-count', 'cart_line_count', /^\d{1,9}$/, 'a whole number');
  read('customer-id', 'shop_customer_id', /^\d{1,19}$/, 'a customer id');
  read('country', 'country_code', /^[A-Za-z]{2}$/, 'a two-letter country code');
  read('limit', 'limit', /^\d{1,3}$/, 'a whole number');
  if (ruleset !== null) context.push(['url', location.href]);
  if (stored && ruleset !== null) ownQuery = [['limit', String(stored.cards)]];

  const currency = attr('currency');
  return {
    key,
    path,
    ownQuery,
    context,
    viewedHandle: attr('product-handle'),
    listsViews: /\/products\/(recently_)?viewed$/.test(path),
    customerId: context.find(([p]) => p === 'shop_customer_id')?.[1] ?? null,
    api,
    title: stored ? stored.title || title : (attr('title') ?? title),
    target: stored ? null : attr('target'),
    currency: currency && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : null,
    productUrl: attr('product-url') ?? '/products/{handle}',
    tagCart: attr('tag-cart')?.toLowerCase() !== 'no',
    design: stored
      ? { id: stored.id, layout: stored.layout, cards: stored.cards, show: stored.show, style: stored.style }
      : null,
  };
}

/** The list request's URL: context first, then the endpoint's own parameters replacing any of the same meaning. */
export function listUrl(config: WidgetConfig, uuid: string): string {
  const params = new URLSearchParams();
  params.set('key', config.key);
  for (const [name, value] of config.context) params.set(name, value);
  params.set('uuid', uuid);
  for (const [name, value] of config.ownQuery) {
    // Named the platform's way (`shopify_product_ids`), it still replaces the page's value: the API refuses both.
    const seed = seedNameOf(name);
    if (seed !== undefined) params.delete(seed);
    params.set(name, value);
  }
  return `${config.api}${config.path}?${params.toString()}`;
}
