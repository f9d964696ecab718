import { lazy } from 'react';
import { NotFound } from './components/NotFound';
import { CatalogPage } from './pages/Catalog';
import { RulesetEditorPage } from './pages/RulesetEditor';
import { RulesetsPage } from './pages/Rulesets';
import type { RuleCatalog } from './types';

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

/** The page a hash route names. */
export function Route({
  route,
  catalog,
  navigate,
  setDirty,
  askBeforeLeaving,
}: {
  route: string;
  catalog: RuleCatalog | undefined;
  navigate(to: string, force?: boolean): void;
  setDirty(dirty: boolean): void;
  /** What to ask before the page is left (null: nothing to lose); a page that sets it clears it when it goes. */
  askBeforeLeaving(question: string | null): void;
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
      return <KeysPage askBeforeLeaving={askBeforeLeaving} />;
    case 'privacy':
      return <PrivacyPage />;
    case 'widgets':
      return catalog ? <WidgetsPage endpoints={catalog.endpoints} /> : <p className="muted">Loading widgets…</p>;
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
