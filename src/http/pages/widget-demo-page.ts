import type { DemoProduct, WidgetDemoLookup } from '../../services/widget-demo.js';
import { escapeHtml } from './html.js';

/** The demo page runs the widget from this server and nothing else; images may come from anywhere (shops host them). */
export const WIDGET_DEMO_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' https: http: data:; " +
    "style-src 'self' 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fafaf8;color:#1d1d1b}' +
  'header{padding:1rem 1.5rem;background:#1f3b2c;color:#fff}header p{margin:0;font-weight:600}' +
  'main{max-width:64rem;margin:0 auto;padding:1.5rem}' +
  '.product{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:2rem;align-items:start}' +
  '.product img{width:100%;height:auto;aspect-ratio:1/1;object-fit:cover;border-radius:12px;background:#eee}' +
  '.product h1{margin:0 0 .5rem;font-size:1.75rem;line-height:1.2}.price{font-size:1.25rem;font-weight:600}' +
  '.price s{font-weight:400;opacity:.6;margin-left:.5rem}.note{color:#545450}' +
  '.vendor{text-transform:uppercase;letter-spacing:.05em;font-size:.8rem;color:#545450}' +
  'code{background:#eeeeea;padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}' +
  'form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}' +
  'label{display:flex;flex-direction:column;gap:.25rem;flex:1 1 18rem}' +
  'input{font:inherit;padding:.6rem;border:1px solid #8a8a86;border-radius:8px}' +
  'button{font:inherit;font-weight:600;padding:.6rem 1.25rem;border:0;border-radius:8px;' +
  'background:#1f5130;color:#fff;cursor:pointer}' +
  'button:focus-visible,input:focus-visible{outline:3px solid #e0a100;outline-offset:2px}' +
  '@media (max-width:640px){.product{grid-template-columns:1fr;gap:1rem}main{padding:1rem}}';

function layout(title: string, heading: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex"><link rel="icon" href="data:,">' +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><header><p>${escapeHtml(heading)}</p></header><main>${body}</main></body></html>`
  );
}

function money(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** One widget script tag; every attribute value escaped. */
function widgetTag(attributes: Record<string, string | number | null | undefined>): string {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => ` data-${k}="${escapeHtml(String(v))}"`)
    .join('');
  return `<script src="/widget.js"${attrs} async></script>`;
}

function productSection(product: DemoProduct, currency: string): string {
  const image = product.image
    ? `<img src="${escapeHtml(product.image.src)}" alt="${escapeHtml(product.image.alt)}" width="800" height="800">`
    : '';
  const compare =
    product.compareAtPrice && Number(product.compareAtPrice) > Number(product.price)
      ? ` <s>${escapeHtml(money(product.compareAtPrice, currency))}</s>`
      : '';
  return (
    `<article class="product" data-product-id="${product.id}"><div>${image}</div><div>` +
    `${product.vendor ? `<p class="vendor">${escapeHtml(product.vendor)}</p>` : ''}` +
    `<h1>${escapeHtml(product.title)}</h1>` +
    `<p class="price">${escapeHtml(money(product.price, currency))}${compare}</p>` +
    `<p>${product.inStock ? 'In stock' : 'Out of stock'}</p>` +
    `<p class="note">${escapeHtml(product.description)}</p></div></article>`
  );
}

/** The storefront-like product page with three widgets: the first enabled ruleset, trending, recently viewed. */
export function renderWidgetDemoPage(found: Extract<WidgetDemoLookup, { kind: 'shop' }>, key: string): string {
  const { shop, product, rulesetId } = found;
  const common = {
    key,
    currency: shop.currency,
    'product-url': `/widget-demo?key=${encodeURIComponent(key)}&product={handle}`,
  };
  const context: Record<string, string | number | null> = product
    ? { 'product-ids': product.id, 'variant-ids': product.variantId, 'product-handle': product.handle }
    : {};
  const widgets = [
    rulesetId !== null && product
      ? widgetTag({ ...common, ruleset: rulesetId, ...context, title: 'You may also like' })
      : '',
    widgetTag({ ...common, endpoint: 'trending_products', ...context, limit: 4, title: 'Trending now' }),
    widgetTag({
      ...common,
      endpoint: 'viewed',
      'product-handle': product?.handle ?? null,
      limit: 4,
      title: 'Recently viewed',
    }),
  ].join('\n');
  const body =
    (product
      ? productSection(product, shop.currency)
      : '<p class="note">This shop has no published product in stock to show yet.</p>') +
    `\n${widgets}\n` +
    `<p class="note">Widget demo for the shop <code>${escapeHtml(shop.handle)}</code>: each block above is one ` +
    '<code>&lt;script src="/widget.js" data-key=…&gt;</code> tag; view this page\'s source to copy them.</p>';
  return layout(product ? `${product.title} — ${shop.name}` : shop.name, shop.name, body);
}

/** The page without a usable key: what to open, and a form to paste the key. */
export function renderWidgetDemoHelp(problem: string | null): string {
  const body =
    '<h1>Storefront widget demo</h1>' +
    (problem ? `<p role="alert"><strong>${escapeHtml(problem)}</strong></p>` : '') +
    "<p>This page shows a shop's product with recommendation widgets, loaded the way a storefront loads them. " +
    "Open it with the shop's <em>public</em> key: " +
    '<code>/widget-demo?key=&lt;the public key printed at start-up&gt;</code>.</p>' +
    '<form method="get" action="/widget-demo"><label>Public key' +
    '<input name="key" required autocomplete="off" spellcheck="false" ' +
    'maxlength="128" pattern="[A-Za-z0-9_\\-]+" placeholder="rb_pub_…"></label>' +
    '<button type="submit">Open the demo</button></form>' +
    '<p class="note">A new key for the demo shop: <code>npm run rebound -- keys demo</code>.</p>';
  return layout('Storefront widget demo', 'Rebound', body);
}
