import type { ParsedSource } from '../attribution/source.js';
import { chooseArm } from './assign.js';
import type { Experiment } from './types.js';

/** Which ruleset answers a request for a ruleset, and the arm when an experiment chose it. */
export interface Routing {
  /** The ruleset whose rules answer; null for the empty control (no products). */
  servedId: number | null;
  arm: { experimentId: number; index: number; name: string } | null;
}

/** The served ruleset id of an arm: its own, or the experiment's ruleset for the empty control's source. */
function sourceRulesetOf(experiment: Experiment, index: number): number {
  return experiment.arms[index]!.ruleset_id ?? experiment.ruleset_id;
}

/**
 * Routes a request for `rulesetId`: a running experiment on it picks the visitor's arm; a stopped
 * one hands the ruleset's traffic to its winner; otherwise the ruleset answers itself. An arm or
 * winner whose ruleset cannot be served (deleted, disabled) leaves the request to the ruleset
 * itself, outside the experiment.
 */
export function routeRequest(
  experiments: readonly Experiment[],
  rulesetId: number,
  visitor: string | null,
  servable: (id: number) => boolean,
): Routing {
  const own: Routing = { servedId: rulesetId, arm: null };
  const running = experiments.find((e) => e.status === 'running' && e.ruleset_id === rulesetId);
  if (running) {
    const index = chooseArm(running, visitor);
    const arm = running.arms[index]!;
    if (arm.ruleset_id !== null && !servable(arm.ruleset_id)) return own;
    return { servedId: arm.ruleset_id, arm: { experimentId: running.id, index, name: arm.name } };
  }
  const decided = latestStopped(experiments, rulesetId);
  const winner = decided?.arms.find((a) => a.name === decided.winner);
  if (winner && winner.ruleset_id !== null && servable(winner.ruleset_id))
    return { servedId: winner.ruleset_id, arm: null };
  return own;
}

/** The most recently stopped experiment on a ruleset: its winner keeps serving until another one decides. */
function latestStopped(experiments: readonly Experiment[], rulesetId: number): Experiment | undefined {
  let latest: Experiment | undefined;
  for (const e of experiments) {
    if (e.status !== 'stopped' || e.ruleset_id !== rulesetId) continue;
    if (
      !latest ||
      (e.stopped_at ?? '') > (latest.stopped_at ?? '') ||
      ((e.stopped_at ?? '') === (latest.stopped_at ?? '') && e.id > latest.id)
    )
      latest = e;
  }
  return latest;
}

/**
 * The experiment arm a tracked source belongs to: the latest experiment, created before the
 * event, with an arm of that name served by that ruleset. Null for sources no experiment chose.
 */
export function armOfSource(
  experiments: readonly Experiment[],
  source: ParsedSource | null,
  at: number,
): { experimentId: number; index: number } | null {
  if (source?.kind !== 'ruleset' || source.arm === null) return null;
  let found: { experimentId: number; index: number; created: number } | null = null;
  for (const e of experiments) {
    const created = Date.parse(e.created_at);
    if (created > at) continue;
    const index = e.arms.findIndex((a, i) => a.name === source.arm && sourceRulesetOf(e, i) === source.rulesetId);
    if (index >= 0 && (!found || created > found.created || (created === found.created && e.id > found.experimentId)))
      found = { experimentId: e.id, index, created };
  }
  return found && { experimentId: found.experimentId, index: found.index };
}

/**
 * A running experiment whose arm already sends the same source as
 * one of the new arms would (tracking could not tell them apart).
 */
export function clashingArm(
  experiments: readonly Experiment[],
  rulesetId: number,
  arms: Experiment['arms'],
): { experiment: Experiment; arm: string } | null {
  for (const e of experiments) {
    if (e.status !== 'running') continue;
    for (let i = 0; i < e.arms.length; i++) {
      const clash = arms.find(
        (a) => a.name === e.arms[i]!.name && (a.ruleset_id ?? rulesetId) === sourceRulesetOf(e, i),
      );
      if (clash) return { experiment: e, arm: clash.name };
    }
  }
  return null;
}
