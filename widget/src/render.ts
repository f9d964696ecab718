import type { CardProduct } from './api.js';
import type { WidgetConfig } from './config.js';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Only http(s) and relative URLs reach an href or src. */
function safeUrl(raw: string): string | null {
  try {
    const url = new URL(raw, document.baseURI);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function formatter(currency: string | null): (amount: number) => string {
  const locale = document.documentElement.lang || undefined;
  try {
    const format = new Intl.NumberFormat(locale, currency ? { style: 'currency', currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (amount) => format.format(amount);
  } catch {
    return (amount) => amount.toFixed(2);
  }
}

function inStock(variant: CardProduct['variants'][number]): boolean {
  return !variant.inventory_management || variant.inventory_policy === 'continue' || variant.inventory_quantity > 0;
}

function card(product: CardProduct, config: WidgetConfig, money: (amount: number) => string, onClick: (product: CardProduct) => void): HTMLLIElement {
  const item = el('li', 'rbw-card');
  const href = safeUrl(config.productUrl.replace(/\{handle\}/g, encodeURIComponent(product.handle)).replace(/\{id\}/g, String(product.id)));
  const link = href ? el('a', 'rbw-link') : el('div', 'rbw-link');
  if (link instanceof HTMLAnchorElement && href) link.href = href;
  // A click, a middle click or a keyboard activation: each leaves the page or opens a tab.
  link.addEventListener('click', () => onClick(product));
  link.addEventListener('auxclick', (event) => {
    if ((event as MouseEvent).button === 1) onClick(product);
  });

  const media = el('span', 'rbw-media');
  const src = product.image ? safeUrl(product.image.src) : null;
  if (src) {
    const image = el('img', 'rbw-image');
    image.src = src;
    // The title follows in the same link: without the merchant's own alt the image is decorative,
    // so a screen reader does not read the title twice.
    image.alt = product.image?.alt ?? '';
    image.loading = 'lazy';
    image.decoding = 'async';
    media.appendChild(image);
  }
  link.appendChild(media);
  link.appendChild(el('span', 'rbw-title', product.title));
  item.appendChild(link);

  const priced = product.variants
    .map((v) => ({ price: Number(v.price), compare: v.compare_at_price === null ? NaN : Number(v.compare_at_price), stocked: inStock(v) }))
    .filter((v) => Number.isFinite(v.price));
  const stocked = product.variants.some(inStock);
  const candidates = priced.filter((v) => v.stocked || !stocked);
  if (candidates.length > 0) {
    const cheapest = candidates.reduce((a, b) => (b.price < a.price ? b : a));
    const price = el('p', 'rbw-price', money(cheapest.price));
    if (cheapest.compare > cheapest.price) {
      const compare = el('s', 'rbw-compare');
      compare.appendChild(el('span', 'rbw-hidden', 'was '));
      compare.appendChild(document.createTextNode(money(cheapest.compare)));
      price.appendChild(compare);
    }
    item.appendChild(price);
  }
  item.appendChild(el('p', stocked ? 'rbw-stock' : 'rbw-stock rbw-out', stocked ? 'In stock' : 'Out of stock'));
  return item;
}

/** The whole widget, built off-document so the page only ever sees it complete. */
export function renderWidget(products: readonly CardProduct[], config: WidgetConfig, onClick: (product: CardProduct) => void = () => undefined): HTMLElement {
  // Each script tag runs its own copy of this module, so ids cannot come from a counter here.
  const headingId = `rbw-heading-${Math.random().toString(36).slice(2, 12)}`;
  const section = el('section', 'rbw');
  section.setAttribute('aria-labelledby', headingId);
  const heading = el('h2', 'rbw-heading', config.title);
  heading.id = headingId;
  section.appendChild(heading);
  const list = el('ul', 'rbw-list');
  // Safari drops list semantics from lists styled without markers unless the role is explicit.
  list.setAttribute('role', 'list');
  const money = formatter(config.currency);
  for (const product of products) list.appendChild(card(product, config, money, onClick));
  section.appendChild(list);
  return section;
}
