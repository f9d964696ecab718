import { fetchProducts, reportView } from './api.js';
import { installCartTagging, rememberClick, sourceFor } from './cart.js';
import { sendEvents, targetOf, whenVisible, type TrackTarget } from './track.js';
import { keyAndApi, readConfig, type WidgetConfig } from './config.js';
import { fetchStoredWidget } from './stored.js';
import { renderWidget } from './render.js';
import { sessionUuid } from './session.js';
import { injectStyles } from './styles.js';

/** The widget's version, readable by the page as window.ReboundWidget.version. */
export const version = '1.2.0';

/**
 * The source of a product or variant the visitor reached through a widget, for storefront code with its own cart calls.
 */
export { sourceFor };

/**
 * State shared by every copy of this script on the page (each widget tag runs its own copy).
 * Kept under a registered symbol, so the page's global names stay untouched.
 */
interface PageState {
  seen: WeakSet<HTMLScriptElement>;
  /** `data-rebound-widget` elements already taken by a copy of this script. */
  holders?: WeakSet<Element>;
  /** Views reported by this page, by handle: each once, however many tags name it. */
  viewed: Map<string, Promise<void>>;
  uuid?: string;
  /** Where add-to-cart events go once the page's cart calls are tagged (the first widget's settings). */
  cartTarget?: TrackTarget;
}

const STATE_KEY = Symbol.for('rebound.widget.state');

function pageState(): PageState {
  const holder = window as unknown as Record<symbol, PageState | undefined>;
  const existing = holder[STATE_KEY];
  if (existing) return existing;
  const state: PageState = { seen: new WeakSet(), viewed: new Map() };
  Object.defineProperty(window, STATE_KEY, { value: state, configurable: false, enumerable: false, writable: false });
  return state;
}

const OWN_SRC = /\/widget\.js(?:[?#]|$)/;

/** The tags this run serves: its own (currentScript), or when that is unknown every widget tag not yet served. */
function scriptsToServe(state: PageState): HTMLScriptElement[] {
  const current = document.currentScript;
  const candidates =
    current instanceof HTMLScriptElement
      ? [current]
      : Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).filter((s) => OWN_SRC.test(s.src));
  const fresh = candidates.filter((s) => !state.seen.has(s));
  for (const script of fresh) state.seen.add(script);
  return fresh;
}

function place(script: HTMLScriptElement, target: string | null, widget: HTMLElement): void {
  if (target !== null) {
    let container: Element | null = null;
    try {
      container = document.querySelector(target);
    } catch {
      container = null;
    }
    if (!container) return;
    while (container.firstChild) container.removeChild(container.firstChild);
    container.appendChild(widget);
    return;
  }
  const root = document.createElement('div');
  root.className = 'rbw-root';
  root.appendChild(widget);
  if (script.parentNode) script.parentNode.insertBefore(root, script);
  else document.body.appendChild(root);
}

/** Renders one widget; `holder` is a stored widget's own element, which the cards replace. */
async function show(
  script: HTMLScriptElement,
  config: WidgetConfig,
  state: PageState,
  holder: Element | null,
): Promise<void> {
  const uuid = sessionUuid(state);
  if (config.viewedHandle && !state.viewed.has(config.viewedHandle)) {
    state.viewed.set(config.viewedHandle, reportView(config, config.viewedHandle, uuid));
  }
  // Views this page reported so far (this tag's own included) are counted before a viewed list is asked.
  if (config.listsViews && state.viewed.size > 0) await Promise.all(Array.from(state.viewed.values()));
  const answer = await fetchProducts(config, uuid);
  if (!answer || answer.products.length === 0) return;
  const { products, source } = answer;
  const target = targetOf(config, uuid);
  const widgetId = config.design?.id;
  const tagged = widgetId === undefined ? {} : { widget: widgetId };
  const widget = renderWidget(products, config, {
    click(product) {
      if (source === null) return;
      rememberClick(product, source, widgetId ?? null);
      sendEvents(target, [{ type: 'click', source, product_id: product.id, ...tagged }]);
    },
    add(product, variantId) {
      if (source !== null) rememberClick(product, source, widgetId ?? null);
      // Through the page's own fetch, so the cart tagging adds the source and reports the add.
      void window
        .fetch('/cart/add.js', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ items: [{ id: variantId, quantity: 1 }] }),
        })
        .catch(() => undefined);
    },
  });
  if (source !== null && !state.cartTarget && config.tagCart) {
    state.cartTarget = target;
    installCartTagging((events) => sendEvents(target, events));
  }
  const insert = () => {
    injectStyles();
    if (holder) holder.replaceChildren(widget);
    else place(script, config.target, widget);
    if (source !== null) whenVisible(widget, () => sendEvents(target, [{ type: 'impression', source, ...tagged }]));
  };
  // A data-target further down the page may not be parsed yet.
  if (config.target !== null && document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', insert, { once: true });
  else insert();
}

/** A widget described by its script tag's attributes (the form of earlier versions). */
async function serve(script: HTMLScriptElement, state: PageState): Promise<void> {
  if (script.hasAttribute('data-ruleset') || script.hasAttribute('data-endpoint')) {
    const config = readConfig(script);
    if (config) await show(script, config, state, null);
  }
}

/**
 * Stored widgets: every `data-rebound-widget` element no copy of the script has taken yet, each with its stored design.
 */
function serveStored(script: HTMLScriptElement, state: PageState): void {
  state.holders ??= new WeakSet();
  const holders = state.holders;
  for (const holder of Array.from(document.querySelectorAll('[data-rebound-widget]'))) {
    if (holders.has(holder)) continue;
    const found = keyAndApi(script, holder);
    if (!found) continue;
    holders.add(holder);
    const id = holder.getAttribute('data-rebound-widget')?.trim() ?? '';
    fetchStoredWidget(found.api, found.key, id)
      .then((stored) => {
        const config = stored && readConfig(script, stored, holder);
        return config ? show(script, config, state, holder) : undefined;
      })
      .catch(() => undefined);
  }
}

function boot(): void {
  try {
    const state = pageState();
    for (const script of scriptsToServe(state)) {
      serve(script, state).catch(() => undefined);
      // Elements further down the page may not be parsed yet when the script runs.
      if (document.readyState === 'loading')
        document.addEventListener('DOMContentLoaded', () => serveStored(script, state), { once: true });
      else serveStored(script, state);
    }
  } catch {
    // A storefront widget must never break the page it is on.
  }
}

boot();
