import { NotFoundError } from '../domain/errors.js';
import { compileRulesetInput } from '../domain/rules/compile.js';
import type { Ruleset } from '../domain/rules/types.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { RulesetStore } from '../store/kysely/rulesets.js';
import { loadCatalog } from '../indexes/catalog-lookup.js';
import { referencesOf } from './recommendations/index.js';

/** Ruleset documents: validated and compiled on save (422 with paths), effective on the next request. */
export function createRulesetsService(deps: { store: RulesetStore; catalog: CatalogIndex }) {
  const { store, catalog } = deps;

  async function compileFor(shopId: number, body: unknown) {
    return compileRulesetInput(body, referencesOf(await loadCatalog(catalog, shopId)));
  }

  return {
    async create(shopId: number, body: unknown): Promise<Ruleset> {
      const { document } = await compileFor(shopId, body);
      const ruleset = await store.createRuleset(shopId, document);
      await catalog.apply(shopId, { rulesets: true });
      return ruleset;
    },
    async update(shopId: number, id: number, body: unknown): Promise<Ruleset> {
      const { document } = await compileFor(shopId, body);
      const ruleset = await store.updateRuleset(shopId, id, document);
      if (!ruleset) throw new NotFoundError(`Ruleset ${id} not found.`, 'unknown_ruleset');
      await catalog.apply(shopId, { rulesets: true });
      return ruleset;
    },
    async remove(shopId: number, id: number): Promise<void> {
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

export type RulesetsService = ReturnType<typeof createRulesetsService>;
