import { visitorKey } from '../../domain/experiments/assign.js';
import { armResults, cumulativeSeries, type ArmResult } from '../../domain/experiments/results.js';
import { clashingArm, routeRequest, type Routing } from '../../domain/experiments/routing.js';
import type { Experiment } from '../../domain/experiments/types.js';
import { ConflictError, InvalidDocumentError, NotFoundError } from '../../domain/errors.js';
import { ExperimentInput, StopExperimentInput } from '../../domain/inputs/experiment.js';
import { validateDocument } from '../../domain/inputs/validate.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { loadCatalog } from '../../indexes/catalog-lookup.js';
import type { ExposureWriter } from '../../jobs/exposure-writer.js';
import type { ExperimentStore } from '../../store/kysely/experiments.js';

function problem(path: string, message: string): never {
  throw new InvalidDocumentError(`Invalid experiment: ${path}: ${message}.`, [{ path, message }]);
}

/** yyyymmdd → YYYY-MM-DD. */
const isoDay = (day: number) => `${String(day).slice(0, 4)}-${String(day).slice(4, 6)}-${String(day).slice(6, 8)}`;

/**
 * Experiments (docs/attribution.md, "Experiments"): admin use cases, the routing of ruleset
 * requests on the hot path (in memory, by hash), and results from per-day totals.
 */
export function createExperimentsService(deps: {
  store: ExperimentStore;
  catalog: CatalogIndex;
  exposures: ExposureWriter;
  clock?: () => number;
}) {
  const { store, catalog, exposures } = deps;
  const clock = deps.clock ?? Date.now;

  async function find(shopId: number, id: number): Promise<Experiment> {
    const experiment = (await store.listExperiments(shopId)).find((e) => e.id === id);
    if (!experiment) throw new NotFoundError(`Experiment ${id} not found.`);
    return experiment;
  }

  return {
    /** Starts an experiment; `startedAt` backdates it (the demo shop's history), never set over HTTP. */
    async create(shopId: number, body: unknown, options: { startedAt?: number } = {}): Promise<Experiment> {
      const input = validateDocument(ExperimentInput, body, 'experiment');
      const rulesets = (await loadCatalog(catalog, shopId)).rulesets;
      // A disabled ruleset answers nothing (its own requests are 404s, its arm's visitors would be
      // served outside the experiment): an experiment on it would not run as set up.
      const serving = (path: string, id: number) => {
        const ruleset = rulesets.get(id)?.ruleset;
        if (!ruleset) problem(path, `unknown ruleset ${id}`);
        if (!ruleset.enabled) problem(path, `ruleset ${id} is disabled; enable it first`);
      };
      serving('ruleset_id', input.ruleset_id);
      const names = new Set<string>();
      input.arms.forEach((arm, i) => {
        if (names.has(arm.name)) problem(`arms[${i}].name`, `"${arm.name}" names two arms`);
        names.add(arm.name);
        if (arm.ruleset_id !== null) serving(`arms[${i}].ruleset_id`, arm.ruleset_id);
      });
      const experiments = await store.listExperiments(shopId);
      if (experiments.some((e) => e.status === 'running' && e.ruleset_id === input.ruleset_id))
        throw new ConflictError(`Ruleset ${input.ruleset_id} already has a running experiment; stop it first.`);
      const clash = clashingArm(experiments, input.ruleset_id, input.arms);
      if (clash)
        throw new ConflictError(
          `Arm "${clash.arm}" would send the same source as an arm of running experiment ${clash.experiment.id}; ` +
            `name it differently.`,
        );
      const created = await store.createExperiment(shopId, {
        name: input.name,
        ruleset_id: input.ruleset_id,
        arms: input.arms,
        ...(options.startedAt !== undefined ? { created_at: options.startedAt } : {}),
      });
      await catalog.apply(shopId, { experiments: true });
      return created;
    },

    /** Every experiment of the shop, newest first. */
    async list(shopId: number): Promise<Experiment[]> {
      return (await store.listExperiments(shopId)).reverse();
    },

    get: find,

    /**
     * Stops a running experiment; its winner's ruleset then serves
     * the ruleset's requests. Repeating the same stop is harmless.
     */
    async stop(shopId: number, id: number, body: unknown): Promise<Experiment> {
      const { winner } = validateDocument(StopExperimentInput, body ?? {}, 'stop');
      const experiment = await find(shopId, id);
      if (winner !== null && !experiment.arms.some((a) => a.name === winner))
        problem(
          'winner',
          `"${winner}" is not an arm of experiment ${id} (${experiment.arms.map((a) => a.name).join(', ')})`,
        );
      if (experiment.status === 'stopped') {
        if (experiment.winner === winner) return experiment;
        throw new ConflictError(
          `Experiment ${id} was already stopped with winner ${JSON.stringify(experiment.winner)}.`,
        );
      }
      const won = experiment.arms.find((a) => a.name === winner)?.ruleset_id ?? null;
      const served = won === null ? undefined : (await loadCatalog(catalog, shopId)).rulesets.get(won)?.ruleset;
      // The winner's ruleset serves from the stop on: one deleted or disabled since would leave the ruleset itself.
      if (won !== null && !served?.enabled)
        problem('winner', `the ruleset of arm "${winner}" (${won}) is ${served ? 'disabled' : 'deleted'}`);
      const stopped = await store.stopExperiment(shopId, id, winner);
      await catalog.apply(shopId, { experiments: true });
      return stopped ?? experiment;
    },

    /**
     * Routes a request for a ruleset (hot path: in memory, no I/O) and notes the visitor an
     * experiment arm served, to be written off the request path.
     */
    route(shopId: number, rulesetId: number, uuid: string | null, customerId: number | null): Routing {
      const shop = catalog.get(shopId);
      const servable = (id: number) => shop?.rulesets.get(id)?.ruleset.enabled === true;
      if (!shop || shop.experiments.length === 0 || !servable(rulesetId)) return { servedId: rulesetId, arm: null };
      const visitor = visitorKey(uuid, customerId);
      const routing = routeRequest(shop.experiments, rulesetId, visitor, servable);
      if (routing.arm && visitor !== null)
        exposures.record({
          shop_id: shopId,
          experiment_id: routing.arm.experimentId,
          arm: routing.arm.index,
          visitor,
          created_at: clock(),
        });
      return routing;
    },

    /** Bulk import of visitors arms served (the demo shop's history), straight to the store. */
    async importVisitors(
      shopId: number,
      rows: { experiment_id: number; arm: number; visitor: string; created_at: number }[],
    ): Promise<void> {
      await store.recordExposures(rows.map((r) => ({ ...r, shop_id: shopId })));
    },

    /** Per-arm figures up to now (visitors buffered on this node are written first). Reads O(arms × days) rows. */
    async results(shopId: number, id: number): Promise<{ experiment: Experiment; arms: ArmResult[] }> {
      const experiment = await find(shopId, id);
      await exposures.flush();
      return { experiment, arms: armResults(experiment, await store.experimentDays(shopId, id)) };
    },

    /** Cumulative figures per day and arm, for the chart over time. */
    async series(shopId: number, id: number) {
      const experiment = await find(shopId, id);
      await exposures.flush();
      const days = cumulativeSeries(experiment, await store.experimentDays(shopId, id));
      return {
        experiment,
        arms: experiment.arms.map((a) => a.name),
        days: days.map((d) => ({ ...d, day: isoDay(d.day) })),
      };
    },
  };
}

export type ExperimentsService = ReturnType<typeof createExperimentsService>;
