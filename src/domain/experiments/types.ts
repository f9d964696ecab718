/** An experiment (docs/attribution.md, "Experiments"): a ruleset's traffic split between arms. */
export interface Arm {
  name: string;
  /** The ruleset that serves the arm; null is the empty control (an answer without products). */
  ruleset_id: number | null;
  /** Relative: any positive numbers. */
  weight: number;
}

export type ExperimentStatus = 'running' | 'stopped';

export interface Experiment {
  id: number;
  name: string;
  /** The ruleset whose requests are split. */
  ruleset_id: number;
  arms: Arm[];
  status: ExperimentStatus;
  /** The winning arm's name once stopped with one. */
  winner: string | null;
  created_at: string;
  stopped_at: string | null;
}
