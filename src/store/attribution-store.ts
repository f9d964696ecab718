import type { AttributedLine, Click } from '../domain/attribution/attribute.js';
import type { TrackRow } from '../domain/attribution/track.js';
import type { Arm, Experiment } from '../domain/experiments/types.js';
import type { ArmDay } from '../domain/experiments/results.js';

/** A day of one source's figures (UTC day as yyyymmdd; revenue in 1/10,000 of the currency). */
export interface SourceDay {
  day: number;
  source: string;
  impressions: number;
  clicks: number;
  add_to_carts: number;
  orders: number;
  revenue: number;
}

/** A day of one experiment arm's figures, as results read them. */
export type ExperimentDay = ArmDay;

/** A visitor an experiment arm served, first seen at `created_at` (epoch ms). */
export interface Exposure {
  shop_id: number;
  experiment_id: number;
  arm: number;
  visitor: string;
  created_at: number;
}

/** Whose clicks the click window reads: signed-in customers' and carts'. */
export interface ClickersOf {
  customerIds: number[];
  cartTokens: string[];
}

/** Tracking and attribution storage (docs/attribution.md). */
export interface TrackingStore {
  /** Stores tracked events of any shops in one transaction, with their per-day totals: all or nothing. */
  appendTrackEvents(rows: TrackRow[]): Promise<void>;
  /** Forgets which tracked events counted on days before `day` (yyyymmdd); returns how many records went. */
  forgetCountedBefore(day: number): Promise<number>;
  /** Clicks by these customers or in these carts created in [from, to] (epoch ms), for the click window. */
  clicksOf(shopId: number, who: ClickersOf, from: number, to: number): Promise<Click[]>;
  /** Replaces the attributed lines of these orders (none for a cancelled one) and moves the per-day totals by the difference. */
  replaceOrderAttributions(shopId: number, orderIds: number[], lines: AttributedLine[]): Promise<void>;
  /** Per-day figures of every source from `sinceDay` (yyyymmdd) on. */
  sourceDays(shopId: number, sinceDay: number): Promise<SourceDay[]>;
}

/** Experiment storage. */
export interface ExperimentStore {
  /** Creates a running experiment (started now, or at `created_at` for imported history); a running one on the same ruleset is a ConflictError. */
  createExperiment(
    shopId: number,
    experiment: { name: string; ruleset_id: number; arms: Arm[]; created_at?: number },
  ): Promise<Experiment>;
  listExperiments(shopId: number): Promise<Experiment[]>;
  /** Stops a running experiment; null when there is no such experiment, the current state when it was stopped already. */
  stopExperiment(shopId: number, id: number, winner: string | null): Promise<Experiment | null>;
  /** Records visitors first served by an arm; a visitor already recorded changes nothing. */
  recordExposures(rows: Exposure[]): Promise<void>;
  /** Every per-day row of an experiment, by arm and day. */
  experimentDays(shopId: number, experimentId: number): Promise<ExperimentDay[]>;
}
