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
    const format = new Intl.NumberFormat(
      locale,
      currency ? { style: 'currency', currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 },
    );
    return (amount) => format.format(amount);
  } catch {
    return (amount) => amount.toFixed(2);
  }
}

function inStock(variant: CardProduct['variants'][number]): boolean {
  return !variant.inventory_management || variant.inventory_policy === 'continue' || variant.inventory_quantity > 0;
}

/** What a card does when the visitor acts on it. */
export interface CardActions {
  click(product: CardProduct): void;
  /** The card's add-to-cart button (stored widgets that show one): the variant to add. */
  add?(product: CardProduct, variantId: number): void;
}

const ALL_SHOWN = { price: true, compare_at_price: true, vendor: false, add_to_cart: false };

function card(
  product: CardProduct,
  config: WidgetConfig,
  money: (amount: number) => string,
  actions: CardActions,
): HTMLLIElement {
  const onClick = actions.click;
  const show = config.design?.show ?? ALL_SHOWN;
  const item = el('li', 'rbw-card');
  const href = safeUrl(
    config.productUrl.replace(/\{handle\}/g, encodeURIComponent(product.handle)).replace(/\{id\}/g, String(product.id)),
  );
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
  if (show.vendor && typeof product.vendor === 'string' && product.vendor !== '')
    link.appendChild(el('span', 'rbw-vendor', product.vendor));
  link.appendChild(el('span', 'rbw-title', product.title));
  item.appendChild(link);

  const priced = product.variants
    .map((v) => ({
      id: v.id,
      price: Number(v.price),
      compare: v.compare_at_price === null ? NaN : Number(v.compare_at_price),
      stocked: inStock(v),
    }))
    .filter((v) => Number.isFinite(v.price));
  const stocked = product.variants.some(inStock);
  const candidates = priced.filter((v) => v.stocked || !stocked);
  const cheapest = candidates.length > 0 ? candidates.reduce((a, b) => (b.price < a.price ? b : a)) : null;
  if (cheapest && show.price) {
    const price = el('p', 'rbw-price', money(cheapest.price));
    if (show.compare_at_price && cheapest.compare > cheapest.price) {
      const compare = el('s', 'rbw-compare');
      compare.appendChild(el('span', 'rbw-hidden', 'was '));
      compare.appendChild(document.createTextNode(money(cheapest.compare)));
      price.appendChild(compare);
    }
    item.appendChild(price);
  }
  item.appendChild(el('p', stocked ? 'rbw-stock' : 'rbw-stock rbw-out', stocked ? 'In stock' : 'Out of stock'));
  const add = actions.add;
  if (show.add_to_cart && add && cheapest && stocked) {
    const button = el('button', 'rbw-add', 'Add to cart');
    button.type = 'button';
    button.setAttribute('aria-label', `Add ${product.title} to cart`);
    button.addEventListener('click', () => add(product, cheapest.id));
    item.appendChild(button);
  }
  return item;
}

/** The whole widget, built off-document so the page only ever sees it complete. */
export function renderWidget(
  products: readonly CardProduct[],
  config: WidgetConfig,
  actions: CardActions = { click: () => undefined },
): HTMLElement {
  const design = config.design;
  // Each script tag runs its own copy of this module, so ids cannot come from a counter here.
  const headingId = `rbw-heading-${Math.random().toString(36).slice(2, 12)}`;
  const section = el('section', design?.layout === 'carousel' ? 'rbw rbw-carousel' : 'rbw');
  // Set through the CSSOM, never as markup: a stored font or colour cannot become CSS of its own.
  if (design?.style.accent) section.style.setProperty('--rbw-accent', design.style.accent);
  if (design?.style.text) section.style.color = design.style.text;
  if (design?.style.font) section.style.fontFamily = design.style.font;
  section.setAttribute('aria-labelledby', headingId);
  const heading = el('h2', 'rbw-heading', config.title);
  heading.id = headingId;
  section.appendChild(heading);
  const list = el('ul', 'rbw-list');
  // Safari drops list semantics from lists styled without markers unless the role is explicit.
  list.setAttribute('role', 'list');
  const money = formatter(config.currency);
  const shown = design ? products.slice(0, design.cards) : products;
  for (const product of shown) list.appendChild(card(product, config, money, actions));
  section.appendChild(list);
  return section;
}
