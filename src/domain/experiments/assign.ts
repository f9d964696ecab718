import { createHash } from 'node:crypto';
import type { Arm, Experiment } from './types.js';

/** Who an experiment counts: the session uuid, else the customer; null for an anonymous request. */
export function visitorKey(uuid: string | null, customerId: number | null): string | null {
  if (uuid !== null) return `u:${uuid.toLowerCase()}`;
  return customerId !== null ? `c:${customerId}` : null;
}

/** The visitor keys of a customer and of their sessions (an erasure forgets them all). */
export function visitorsOf(customerId: number, sessions: readonly string[]): string[] {
  return [`c:${customerId}`, ...sessions.map((uuid) => `u:${uuid.toLowerCase()}`)];
}

/** A point in [0, 1) from a hash of (experiment id, visitor): the same visitor always lands on the same point. */
export function bucketOf(experimentId: number, visitor: string): number {
  const digest = createHash('sha256').update(`${experimentId}\u0000${visitor}`).digest();
  // 48 bits: plenty of resolution for weights, exact in a double.
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The arm a point falls in, each arm taking a share of [0, 1) in proportion to its weight. */
export function armAt(arms: readonly Arm[], point: number): number {
  const total = arms.reduce((sum, arm) => sum + arm.weight, 0);
  let edge = 0;
  for (let i = 0; i < arms.length; i++) {
    edge += arms[i]!.weight / total;
    if (point < edge) return i;
  }
  return arms.length - 1; // rounding at the top edge
}

/** The arm index serving a visitor: by hash when known, the first arm for an anonymous request. */
export function chooseArm(experiment: Pick<Experiment, 'id' | 'arms'>, visitor: string | null): number {
  return visitor === null ? 0 : armAt(experiment.arms, bucketOf(experiment.id, visitor));
}
