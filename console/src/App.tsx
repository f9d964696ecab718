import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError, createApi } from './api';
import { NotFound } from './components/NotFound';
import { ConsoleContext, ProductCache, type ConsoleContextValue } from './context';
import { focusHeadingWhenReady, useHashRoute, useLoad } from './hooks';
import { KeptStateProvider } from './kept-state';
import { CatalogPage } from './pages/Catalog';
import { RulesetEditorPage } from './pages/RulesetEditor';
import { RulesetsPage } from './pages/Rulesets';
import { SignIn } from './pages/SignIn';
import { useDocumentTitle } from './title';
import type { RuleCatalog, Session, Shop } from './types';
import { CustomerSignatureNotice } from './components/CustomerSignatureNotice';

// The chart pages carry the chart library; the editor loads without it.
const InsightsPage = lazy(() => import('./pages/Insights').then((m) => ({ default: m.InsightsPage })));
const CampaignsPage = lazy(() => import('./pages/Campaigns').then((m) => ({ default: m.CampaignsPage })));
const BillingSettingsPage = lazy(() =>
  import('./pages/BillingSettings').then((m) => ({ default: m.BillingSettingsPage })),
);
const WidgetsPage = lazy(() => import('./pages/Widgets').then((m) => ({ default: m.WidgetsPage })));
const ConnectionPage = lazy(() => import('./pages/Connection').then((m) => ({ default: m.ConnectionPage })));
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.SettingsPage })));
const ExperimentsPage = lazy(() => import('./pages/Experiments').then((m) => ({ default: m.ExperimentsPage })));
const KeysPage = lazy(() => import('./pages/Keys').then((m) => ({ default: m.KeysPage })));
const PrivacyPage = lazy(() => import('./pages/Privacy').then((m) => ({ default: m.PrivacyPage })));

const TOKEN_KEY = 'rebound.console.token';
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

export function App() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [session, setSession] = useState<Session | null>(null);
  const [signInError, setSignInError] = useState<string | null>(null);

  const signOut = useCallback(() => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
    setSession(null);
  }, []);

  // The server refused the token mid-session (the key was ended, or replaced and its day is over).
  const refused = useCallback(() => {
    signOut();
    setSignInError('Your sign-in has ended: the key was ended or replaced. Sign in with your current private key.');
  }, [signOut]);

  const signIn = useCallback(async (candidate: string) => {
    try {
      const api = createApi(candidate, () => undefined);
      const found = await api.get<Session>('/session');
      sessionStorage.setItem(TOKEN_KEY, candidate);
      setSignInError(null);
      setSession(found);
      setToken(candidate);
    } catch (error) {
      const refused = error instanceof ApiError && error.status === 401;
      setSignInError(
        refused
          ? "That token was not accepted. Use the operator token or a shop's private key."
          : (error as Error).message,
      );
      // Only a refused token is forgotten: a brief outage must not sign the merchant out.
      if (refused) sessionStorage.removeItem(TOKEN_KEY);
      setToken(null);
    }
  }, []);

  // A token kept from earlier in this tab signs in again on reload.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; later sign-ins come from the form
  useEffect(() => {
    if (token && !session) void signIn(token);
  }, []);

  // Rotating the private key this tab signed in with ends it: the console goes on with the new one.
  const replaceToken = useCallback((next: string) => {
    sessionStorage.setItem(TOKEN_KEY, next);
    setToken(next);
  }, []);

  const shopChanged = useCallback(
    (changed: Shop) =>
      setSession(
        (current) =>
          current && { ...current, shops: current.shops.map((s) => (s.handle === changed.handle ? changed : s)) },
      ),
    [],
  );

  if (!token || !session)
    return token && !signInError ? (
      <p className="muted pad">Signing in…</p>
    ) : (
      <SignIn onSignIn={signIn} error={signInError} />
    );
  // What pages keep for later (the catalog's search, the preview's inputs) is forgotten on signing out.
  return (
    <KeptStateProvider>
      <SignedIn
        token={token}
        session={session}
        onSignOut={signOut}
        onRefused={refused}
        onShopChanged={shopChanged}
        onTokenReplaced={replaceToken}
      />
    </KeptStateProvider>
  );
}

function SignedIn({
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
  const dirty = useRef(false);
  // Back, forward and typed addresses change the hash too: with unsaved changes they ask first.
  const confirmLeave = () =>
    !dirty.current || window.confirm('This ruleset has unsaved changes. Leave without saving?');
  const route = useHashRoute(confirmLeave);
  const setDirty = useCallback((value: boolean) => {
    dirty.current = value;
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
    dirty.current = false;
    window.location.hash = to;
  }, []);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirty.current) {
        event.preventDefault();
        event.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  const switchShop = (next: string) => {
    if (!confirmLeave()) return;
    dirty.current = false;
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
        {catalog.error && (
          <p className="error" role="alert">
            {catalog.error}
          </p>
        )}
        <CustomerSignatureNotice />
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Route route={route} catalog={catalog.data} navigate={navigate} setDirty={setDirty} />
        </Suspense>
      </main>
    </ConsoleContext.Provider>
  );
}

function Route({
  route,
  catalog,
  navigate,
  setDirty,
}: {
  route: string;
  catalog: RuleCatalog | undefined;
  navigate(to: string, force?: boolean): void;
  setDirty(dirty: boolean): void;
}) {
  const parts = route.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'catalog': {
      const productId = parts[1] ? Number(parts[1]) : null;
      if (productId !== null && !(Number.isSafeInteger(productId) && productId > 0))
        return <NotFound what={`product “${parts[1]}”`} />;
      return <CatalogPage productId={productId} navigate={navigate} />;
    }
    case 'insights':
      return <InsightsPage />;
    case 'campaigns':
      return <CampaignsPage />;
    case 'billing':
      return <BillingSettingsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'connection':
      return <ConnectionPage />;
    case 'experiments':
      return <ExperimentsPage />;
    case 'keys':
      return <KeysPage />;
    case 'privacy':
      return <PrivacyPage />;
    case 'widgets':
      return catalog ? <WidgetsPage endpoints={catalog.endpoints} /> : <p className="muted">Loading…</p>;
    default:
      if (parts[0] === 'rulesets' && parts[1]) {
        if (!catalog) return <p className="muted">Loading the rule catalog…</p>;
        const id = parts[1] === 'new' ? null : Number(parts[1]);
        if (id !== null && !(Number.isInteger(id) && id > 0)) return <NotFound what={`ruleset “${parts[1]}”`} />;
        return <RulesetEditorPage id={id} catalog={catalog} onDirty={setDirty} navigate={navigate} />;
      }
      return <RulesetsPage navigate={navigate} />;
  }
}
