import { ConflictError, NotFoundError } from '../domain/errors.js';
import { compileRulesetInput } from '../domain/rules/compile.js';
import { keepingStoredReferences } from '../domain/rules/kept-references.js';
import type { Ruleset } from '../domain/rules/types.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { Experiment } from '../domain/experiments/types.js';
import type { Widget } from '../domain/widgets/widget.js';
import type { RulesetStore } from '../store/kysely/rulesets.js';
import { loadCatalog } from '../indexes/catalog-lookup.js';
import { referencesOf } from './recommendations/index.js';

/** Ruleset documents: validated and compiled on save (422 with paths), effective on the next request. */
export function createRulesetsService(deps: { store: RulesetStore & ReferringStore; catalog: CatalogIndex }) {
  const { store, catalog } = deps;

  /**
   * A ruleset a widget shows or a running experiment splits stays: deleting it would empty the widget
   * and move the experiment's visitors silently. A stopped experiment's winner may go (docs/attribution.md).
   */
  async function refuseIfReferred(shopId: number, id: number): Promise<void> {
    const [widgets, experiments] = await Promise.all([store.listWidgets(shopId), store.listExperiments(shopId)]);
    const shown = widgets
      .filter((w) => 'ruleset_id' in w.source && w.source.ruleset_id === id)
      .map((w) => `${w.id} “${w.name}”`);
    if (shown.length > 0) {
      const [widget, them] = shown.length > 1 ? ['widgets', 'them'] : ['widget', 'it'];
      throw new ConflictError(
        `Ruleset ${id} is the source of ${widget} ${shown.join(', ')}; ` +
          `give ${them} another source or delete ${them} first.`,
      );
    }
    const split = experiments.find(
      (e) => e.status === 'running' && (e.ruleset_id === id || e.arms.some((arm) => arm.ruleset_id === id)),
    );
    if (split) throw new ConflictError(`Ruleset ${id} serves running experiment ${split.id}; stop it first.`);
  }

  /** The document compiled against the catalog; an update keeps what its stored version named (kept-references.ts). */
  async function compileFor(shopId: number, body: unknown, stored?: Ruleset) {
    const references = referencesOf(await loadCatalog(catalog, shopId));
    return compileRulesetInput(body, stored ? keepingStoredReferences(stored.rules, references) : references);
  }

  return {
    async create(shopId: number, body: unknown): Promise<Ruleset> {
      const { document } = await compileFor(shopId, body);
      const ruleset = await store.createRuleset(shopId, document);
      await catalog.apply(shopId, { rulesets: true });
      return ruleset;
    },
    async update(shopId: number, id: number, body: unknown): Promise<Ruleset> {
      const stored = await store.getRuleset(shopId, id);
      if (!stored) throw new NotFoundError(`Ruleset ${id} not found.`, 'unknown_ruleset');
      const { document } = await compileFor(shopId, body, stored);
      const ruleset = await store.updateRuleset(shopId, id, document);
      if (!ruleset) throw new NotFoundError(`Ruleset ${id} not found.`, 'unknown_ruleset');
      await catalog.apply(shopId, { rulesets: true });
      return ruleset;
    },
    async remove(shopId: number, id: number): Promise<void> {
      await refuseIfReferred(shopId, id);
      if (!(await store.deleteRuleset(shopId, id)))
        throw new NotFoundError(`Ruleset ${id} not found.`, 'unknown_ruleset');
      await catalog.apply(shopId, { rulesets: true });
    },
    async get(shopId: number, id: number): Promise<Ruleset> {
      const ruleset = await store.getRuleset(shopId, id);
      if (!ruleset) throw new NotFoundError(`Ruleset ${id} not found.`, 'unknown_ruleset');
      return ruleset;
    },
    list(shopId: number): Promise<Ruleset[]> {
      return store.listRulesets(shopId);
    },
  };
}

/** What else names a ruleset: widgets' sources and experiments' arms. */
interface ReferringStore {
  listWidgets(shopId: number): Promise<Widget[]>;
  listExperiments(shopId: number): Promise<Experiment[]>;
}

export type RulesetsService = ReturnType<typeof createRulesetsService>;
