/** What one widget script tag asks for, read from its data attributes. */
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

function attr(script: HTMLScriptElement, name: string): string | null {
  const value = script.getAttribute(`data-${name}`);
  return value === null || value.trim() === '' ? null : value.trim();
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

function apiOrigin(script: HTMLScriptElement): string | null {
  const given = attr(script, 'api');
  try {
    const url = new URL(given ?? script.src, document.baseURI);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    // data-api may carry a path prefix (a proxy); the script's own src never does.
    return given ? url.href.replace(/\/+$/, '') : url.origin;
  } catch {
    return null;
  }
}

/** Reads a script tag; null when it cannot make a valid request (then the widget renders nothing). */
export function readConfig(script: HTMLScriptElement): WidgetConfig | null {
  const key = attr(script, 'key');
  const api = apiOrigin(script);
  if (!key || !api) return null;
  const ruleset = attr(script, 'ruleset');
  let path: string;
  let ownQuery: [string, string][] = [];
  let title: string;
  if (ruleset !== null) {
    if (!/^\d{1,19}$/.test(ruleset)) return null;
    path = `/api/v1/custom/id/${ruleset}`;
    title = 'You may also like';
  } else {
    const endpoint = parseEndpoint(attr(script, 'endpoint') ?? '');
    if (!endpoint) return null;
    path = `/api/v1/products/${endpoint.name}`;
    ownQuery = endpoint.query;
    title = DEFAULT_TITLES[endpoint.name] ?? 'Recommended for you';
  }

  const context: [string, string][] = [];
  const ids = (name: string, param: string) => {
    const value = attr(script, name)?.replace(/\s+/g, '');
    if (value && ID_LIST.test(value)) context.push([param, value]);
  };
  const number = (name: string, param: string, pattern: RegExp) => {
    const value = attr(script, name);
    if (value && pattern.test(value)) context.push([param, value]);
  };
  ids('product-ids', 'shop_product_ids');
  ids('variant-ids', 'shop_variant_ids');
  number('cart-subtotal', 'cart_subtotal', /^\d{1,12}(\.\d{1,4})?$/);
  number('cart-item-count', 'cart_item_count', /^\d{1,9}$/);
  number('cart-line-count', 'cart_line_count', /^\d{1,9}$/);
  number('customer-id', 'shop_customer_id', /^\d{1,19}$/);
  number('country', 'country_code', /^[A-Za-z]{2}$/);
  number('limit', 'limit', /^\d{1,3}$/);
  if (ruleset !== null) context.push(['url', location.href]);

  const currency = attr(script, 'currency');
  return {
    key,
    path,
    ownQuery,
    context,
    viewedHandle: attr(script, 'product-handle'),
    listsViews: /\/products\/(recently_)?viewed$/.test(path),
    customerId: context.find(([p]) => p === 'shop_customer_id')?.[1] ?? null,
    api,
    title: attr(script, 'title') ?? title,
    target: attr(script, 'target'),
    currency: currency && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : null,
    productUrl: attr(script, 'product-url') ?? '/products/{handle}',
    tagCart: attr(script, 'tag-cart')?.toLowerCase() !== 'no',
  };
}

/** The list request's URL: context first, then the endpoint's own parameters replacing any of the same name. */
export function listUrl(config: WidgetConfig, uuid: string): string {
  const params = new URLSearchParams();
  params.set('key', config.key);
  for (const [name, value] of config.context) params.set(name, value);
  params.set('uuid', uuid);
  for (const [name, value] of config.ownQuery) params.set(name, value);
  return `${config.api}${config.path}?${params.toString()}`;
}
