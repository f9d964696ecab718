import { LoadState } from './components/LoadState';
import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { createApi } from './api';
import { CustomerSignatureNotice } from './components/CustomerSignatureNotice';
import { ConsoleContext, type ConsoleContextValue, ProductCache } from './context';
import { focusHeadingWhenReady, useHashRoute, useLoad } from './hooks';
import { Route } from './Route';
import { useDocumentTitle } from './title';
import type { RuleCatalog, Session, Shop } from './types';

const SHOP_KEY = 'rebound.console.shop';

const NAV = [
  ['/rulesets', 'Rulesets'],
  ['/widgets', 'Widgets'],
  ['/catalog', 'Catalog'],
  ['/insights', 'Insights'],
  ['/experiments', 'Experiments'],
  ['/campaigns', 'Campaigns'],
  ['/billing', 'Billing'],
  ['/connection', 'Connection'],
  ['/settings', 'Settings'],
  ['/keys', 'Keys'],
  ['/privacy', 'Privacy'],
] as const;

/** The console once signed in: the shop switcher, the navigation and the page the route names. */
export function SignedIn({
  token,
  session,
  onSignOut,
  onShopChanged,
  onTokenReplaced,
  onRefused,
}: {
  token: string;
  session: Session;
  onSignOut(): void;
  onRefused(): void;
  onShopChanged(shop: Shop): void;
  onTokenReplaced(token: string): void;
}) {
  const api = useMemo(() => createApi(token, onRefused), [token, onRefused]);
  const [handle, setHandle] = useState<string>(() => {
    const kept = localStorage.getItem(SHOP_KEY);
    return session.shops.find((s) => s.handle === kept)?.handle ?? session.shops[0]?.handle ?? '';
  });
  const shop = session.shops.find((s) => s.handle === handle) ?? session.shops[0];
  // The product cache lives as long as the shop handle: a saved setting does not empty it.
  const shopHandle = shop?.handle;
  const products = useMemo(() => (shopHandle ? new ProductCache(api, shopHandle) : null), [api, shopHandle]);
  const context = useMemo<ConsoleContextValue | null>(
    () =>
      shop && products
        ? {
            api,
            shop,
            products,
            onShopChanged,
            operator: session.operator,
            canStoreTokens: session.can_store_tokens,
            bearer: token,
            replaceToken: onTokenReplaced,
          }
        : null,
    [api, shop, products, onShopChanged, session.operator, session.can_store_tokens, token, onTokenReplaced],
  );
  // What to ask before leaving the page: unsaved changes, or new keys shown only once. Null: leave freely.
  const leaving = useRef<string | null>(null);
  // Back, forward and typed addresses change the hash too: with something to lose they ask first.
  const confirmLeave = () => leaving.current === null || window.confirm(leaving.current);
  const route = useHashRoute(confirmLeave);
  const setDirty = useCallback((value: boolean) => {
    leaving.current = value ? 'This ruleset has unsaved changes. Leave without saving?' : null;
  }, []);
  const askBeforeLeaving = useCallback((question: string | null) => {
    leaving.current = question;
  }, []);
  const catalog = useLoad(() => api.get<RuleCatalog>('/rule-catalog'), [api]);
  const switcherId = useId();
  useDocumentTitle(shop ? null : ['No shop']);

  // Links ask about unsaved work before they touch the hash; `force` is for the editor itself, right after a save.
  /* biome-ignore lint/correctness/useExhaustiveDependencies: confirmLeave reads a ref,
     so one callback serves every render */
  const navigate = useCallback((to: string, force = false) => {
    if (!force && !confirmLeave()) return;
    // Asked (or saved) already: the hash guard must not ask again.
    leaving.current = null;
    window.location.hash = to;
  }, []);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (leaving.current !== null) {
        event.preventDefault();
        event.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  const switchShop = (next: string) => {
    if (!confirmLeave()) return;
    leaving.current = null;
    localStorage.setItem(SHOP_KEY, next);
    setHandle(next);
    window.location.hash = '/rulesets';
  };

  // A new view takes focus at its heading, once the view has loaded far enough to show it.
  /* biome-ignore lint/correctness/useExhaustiveDependencies: the route and the shop are what make a new view, not
     inputs of the effect */
  useEffect(() => focusHeadingWhenReady(), [route, shop?.handle]);

  if (!shop || !context) {
    return (
      <main className="pad">
        <p>
          No shop yet. Create one with <code>POST /admin/v1/shops</code> or <code>rebound shops create</code>.
        </p>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </main>
    );
  }

  const section = `/${route.split('/')[1] ?? ''}`;
  return (
    <ConsoleContext.Provider value={context}>
      {/* A button, not a link to #main: the console routes by the hash, so skipping moves focus instead. */}
      <button
        className="skip-link"
        type="button"
        onClick={() => {
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </button>
      <header className="topbar">
        <span className="brand">Rebound</span>
        <nav aria-label="Console">
          <ul>
            {NAV.map(([path, label]) => (
              <li key={path}>
                <a
                  href={`#${path}`}
                  aria-current={section === path ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(path);
                  }}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="shop-switch">
          {session.operator && session.shops.length > 1 ? (
            <>
              <label htmlFor={switcherId}>Shop</label>
              <select id={switcherId} value={shop.handle} onChange={(e) => switchShop(e.target.value)}>
                {session.shops.map((s) => (
                  <option key={s.handle} value={s.handle}>
                    {s.name} ({s.handle})
                  </option>
                ))}
              </select>
            </>
          ) : (
            <span>
              Shop: <strong>{shop.name}</strong>
            </span>
          )}
          <button
            type="button"
            onClick={() => {
              if (confirmLeave()) onSignOut();
            }}
          >
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {catalog.error !== null && (
          <LoadState loaded={catalog} what="the rule catalog (the conditions rules can use)" />
        )}
        <CustomerSignatureNotice />
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Route
            route={route}
            catalog={catalog.data}
            navigate={navigate}
            setDirty={setDirty}
            askBeforeLeaving={askBeforeLeaving}
          />
        </Suspense>
      </main>
    </ConsoleContext.Provider>
  );
}
