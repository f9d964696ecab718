import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../src/domain/attribution/source.js';
import { armOfSource } from '../../../src/domain/experiments/routing.js';
import type { Experiment } from '../../../src/domain/experiments/types.js';

const experiment = (id: number, createdAt: string, arms: Experiment['arms'], rulesetId = 7): Experiment => ({
  id,
  name: `e${id}`,
  ruleset_id: rulesetId,
  arms,
  status: 'stopped',
  winner: null,
  created_at: createdAt,
  stopped_at: null,
});

/** Which experiment's arm a tracked source (`ruleset:<id>:v<n>:arm:<name>`) counts for. */
describe('armOfSource', () => {
  const experiments = [
    experiment(1, '2026-01-01T00:00:00Z', [
      { name: 'A', ruleset_id: 7, weight: 1 },
      { name: 'B', ruleset_id: 8, weight: 1 },
    ]),
    experiment(2, '2026-03-01T00:00:00Z', [
      { name: 'B', ruleset_id: 7, weight: 1 },
      { name: 'A', ruleset_id: 7, weight: 1 },
    ]),
    // Created at the same instant as the second: the higher id is the later.
    experiment(3, '2026-03-01T00:00:00Z', [{ name: 'A', ruleset_id: 9, weight: 1 }]),
    experiment(4, '2026-03-01T00:00:00Z', [{ name: 'A', ruleset_id: 9, weight: 1 }]),
  ];
  const at = (date: string) => Date.parse(date);
  const arm = (source: string, date: string) => armOfSource(experiments, parseSource(source), at(date));

  it('takes the latest experiment created before the event with an arm of that name on that ruleset', () => {
    expect(arm('ruleset:7:v1:arm:A', '2026-02-01T00:00:00Z')).toEqual({ experimentId: 1, index: 0 });
    expect(arm('ruleset:7:v1:arm:A', '2026-04-01T00:00:00Z')).toEqual({ experimentId: 2, index: 1 });
    expect(arm('ruleset:8:v1:arm:B', '2026-04-01T00:00:00Z')).toEqual({ experimentId: 1, index: 1 });
    expect(arm('ruleset:9:v1:arm:A', '2026-04-01T00:00:00Z')).toEqual({ experimentId: 4, index: 0 });
  });

  it('finds none before any experiment, for another arm or ruleset, or for a source no experiment chose', () => {
    expect(arm('ruleset:7:v1:arm:A', '2025-12-01T00:00:00Z')).toBeNull();
    expect(arm('ruleset:7:v1:arm:C', '2026-04-01T00:00:00Z')).toBeNull();
    expect(arm('ruleset:8:v1:arm:A', '2026-04-01T00:00:00Z')).toBeNull();
    expect(arm('list:top_sellers', '2026-04-01T00:00:00Z')).toBeNull();
  });
});
