import {
  attributeOrder,
  indexClicks,
  type AttributedLine,
  type OrderToAttribute,
} from '../domain/attribution/attribute.js';
import { parseSource } from '../domain/attribution/source.js';
import { formatMoney } from '../domain/catalog/money.js';
import { utcDay } from '../domain/events.js';
import { armOfSource } from '../domain/experiments/routing.js';
import type { Experiment } from '../domain/experiments/types.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { ExperimentStore } from '../store/kysely/experiments.js';
import type { RulesetStore } from '../store/kysely/rulesets.js';
import type { ShopStore } from '../store/kysely/shops.js';
import type { TrackingStore, SourceDay } from '../store/kysely/tracking.js';
import type { WidgetStore } from '../store/kysely/widgets.js';

/** The click window when a shop sets none (docs/attribution.md, "The click window"). */
export const DEFAULT_ATTRIBUTION_WINDOW_HOURS = 24;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** `widget:<id>`: the same events again, seen per stored widget (docs/widget.md). */
const WIDGET = /^widget:(\d{1,15})$/;

/** Widget rows a report lists at most, the most clicked first. */
const MAX_WIDGET_ROWS = 100;

/** One source's (or one ruleset's) figures over a period. */
export interface SourceFigures {
  impressions: number;
  clicks: number;
  add_to_carts: number;
  orders: number;
  /** In the shop's currency. */
  revenue: number;
}

/** What the insights page shows: attributed figures per ruleset and per list over the last days. */
export interface AttributionSummary {
  days: number;
  currency: string;
  totals: SourceFigures;
  rulesets: (SourceFigures & { ruleset_id: number; name: string })[];
  lists: (SourceFigures & { list: string })[];
  /** Sources that are neither (sent by other tools): counted in totals only. */
  other: SourceFigures;
  /**
   * Per stored widget: the widget sends each event under its own source as well as under the
   * answer's, so these figures are already in the rulesets and lists above, never added to totals.
   */
  widgets: (SourceFigures & { widget_id: number; name: string | null })[];
}

const empty = (): SourceFigures & { money: number } => ({
  impressions: 0,
  clicks: 0,
  add_to_carts: 0,
  orders: 0,
  revenue: 0,
  money: 0,
});

function add(target: ReturnType<typeof empty>, row: SourceDay): void {
  target.impressions += row.impressions;
  target.clicks += row.clicks;
  target.add_to_carts += row.add_to_carts;
  target.orders += row.orders;
  target.money += row.revenue;
}

/** Attribution of orders as they arrive, and the figures per source (docs/attribution.md). */
export function createAttributionService(deps: {
  store: TrackingStore & WidgetStore & Pick<ShopStore, 'getShopById'> & ExperimentStore & RulesetStore;
  catalog: CatalogIndex;
}) {
  const { store, catalog } = deps;

  /**
   * What attributing needs of the shop, from its read model when this process holds it, else from
   * the store: an import (another process), another worker, or a restart must attribute the same.
   */
  async function attributionContext(
    shopId: number,
  ): Promise<{ windowHours: number; experiments: readonly Experiment[] }> {
    const resident = catalog.get(shopId);
    const [shop, experiments] = resident
      ? [resident.shop, resident.experiments]
      : await Promise.all([store.getShopById(shopId), store.listExperiments(shopId)]);
    return { windowHours: shop?.settings.attribution_window_hours ?? DEFAULT_ATTRIBUTION_WINDOW_HOURS, experiments };
  }

  /** The shop's currency and its rulesets' names, however much of it this process holds. */
  async function labels(shopId: number): Promise<{ currency: string; rulesetName: (id: number) => string | null }> {
    const resident = catalog.get(shopId);
    if (resident)
      return { currency: resident.shop.currency, rulesetName: (id) => resident.rulesets.get(id)?.ruleset.name ?? null };
    const [shop, rulesets] = await Promise.all([store.getShopById(shopId), store.listRulesets(shopId)]);
    const names = new Map(rulesets.map((r) => [r.id, r.name]));
    return { currency: shop?.currency ?? 'USD', rulesetName: (id) => names.get(id) ?? null };
  }

  return {
    /**
     * Attributes imported orders (import and webhooks both come here), replacing what earlier
     * imports of the same orders attributed: a cancellation or refund takes it back.
     */
    async attributeOrders(shopId: number, orders: readonly OrderToAttribute[]): Promise<void> {
      if (orders.length === 0) return;
      // An order given twice: the last one stands, as in the import.
      const latest = new Map(orders.map((o) => [o.id, o]));
      const context = await attributionContext(shopId);
      const windowMs = context.windowHours * HOUR_MS;
      const traceable = (o: OrderToAttribute) => o.customer_id !== null || o.cart_token !== null;
      const untagged = (o: OrderToAttribute) => o.lines.some((l) => l.source === null && l.quantity > 0);
      const needClicks = [...latest.values()].filter((o) => !o.cancelled && traceable(o) && untagged(o));
      const clicks =
        needClicks.length === 0
          ? []
          : await store.clicksOf(
              shopId,
              {
                customerIds: needClicks.flatMap((o) => (o.customer_id === null ? [] : [o.customer_id])),
                cartTokens: needClicks.flatMap((o) => (o.cart_token === null ? [] : [o.cart_token])),
              },
              Math.min(...needClicks.map((o) => o.created_at)) - windowMs,
              Math.max(...needClicks.map((o) => o.created_at)),
            );
      const { experiments } = context;
      const lines: AttributedLine[] = [];
      const indexed = indexClicks(clicks);
      for (const order of latest.values()) {
        for (const line of attributeOrder(order, indexed, windowMs)) {
          const arm = armOfSource(experiments, parseSource(line.source), order.created_at);
          lines.push({ ...line, experiment_id: arm?.experimentId ?? null, arm: arm?.index ?? null });
        }
      }
      await store.replaceOrderAttributions(shopId, [...latest.keys()], lines);
    },

    /** Attributed figures per ruleset and per list over the last `days` days (UTC), from the per-day totals. */
    async summary(shopId: number, days: number, now = Date.now()): Promise<AttributionSummary> {
      const { currency, rulesetName } = await labels(shopId);
      const rows = await store.sourceDays(shopId, utcDay(now - (days - 1) * DAY_MS));
      const totals = empty();
      const other = empty();
      const rulesets = new Map<number, ReturnType<typeof empty>>();
      const lists = new Map<string, ReturnType<typeof empty>>();
      const widgets = new Map<number, ReturnType<typeof empty>>();
      for (const row of rows) {
        const widget = WIDGET.exec(row.source);
        if (widget) {
          const id = Number(widget[1]);
          add(widgets.get(id) ?? widgets.set(id, empty()).get(id)!, row);
          continue;
        }
        const parsed = parseSource(row.source);
        let bucket = other;
        // A source naming no ruleset of the shop (deleted, or sent by a visitor) counts in `other`: one row each
        // would let anyone add rows to the merchant's report.
        if (parsed?.kind === 'ruleset' && rulesetName(parsed.rulesetId) !== null)
          bucket = rulesets.get(parsed.rulesetId) ?? rulesets.set(parsed.rulesetId, empty()).get(parsed.rulesetId)!;
        else if (parsed?.kind === 'list')
          bucket = lists.get(parsed.name) ?? lists.set(parsed.name, empty()).get(parsed.name)!;
        for (const target of [bucket, totals]) add(target, row);
      }
      const names =
        widgets.size > 0
          ? new Map((await store.listWidgets(shopId)).map((w) => [w.id, w.name]))
          : new Map<number, string>();
      const figures = ({ money, ...rest }: ReturnType<typeof empty>): SourceFigures => ({
        ...rest,
        revenue: Number(formatMoney(money)),
      });
      return {
        days,
        currency,
        totals: figures(totals),
        rulesets: [...rulesets]
          .map(([id, f]) => ({ ruleset_id: id, name: rulesetName(id)!, ...figures(f) }))
          .sort((a, b) => b.revenue - a.revenue || a.ruleset_id - b.ruleset_id),
        lists: [...lists]
          .map(([list, f]) => ({ list, ...figures(f) }))
          .sort((a, b) => b.revenue - a.revenue || a.list.localeCompare(b.list)),
        other: figures(other),
        // Rebound's widgets by name, the platform widget's by id alone; the most clicked only, as any visitor
        // may send a widget id (their figures are in the rulesets' and lists' already).
        widgets: [...widgets]
          .map(([id, f]) => ({ widget_id: id, name: names.get(id) ?? null, ...figures(f) }))
          .sort((a, b) => b.clicks - a.clicks || a.widget_id - b.widget_id)
          .slice(0, MAX_WIDGET_ROWS),
      };
    },
  };
}

export type AttributionService = ReturnType<typeof createAttributionService>;
