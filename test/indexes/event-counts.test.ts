import { describe, expect, it } from 'vitest';
import { EventCounts } from '../../src/indexes/event-counts.js';
import { eventTotals } from '../helpers/fixtures.js';

describe('EventCounts', () => {
  const past = eventTotals([
    { handle: 'cap', views: 4, adds: 0 },
    { handle: 'mug', views: 10, adds: 2 },
  ]);
  const today = eventTotals([
    { handle: 'cap', views: 1, adds: 1 },
    { handle: 'new-tee', views: 3, adds: 0 },
  ]);

  it('adds the sums up handle by handle, and answers as a map of counts in the order of the handles', () => {
    const counts = EventCounts.sum(past, today);
    const expected = new Map([
      ['cap', { views: 5, adds: 1 }],
      ['mug', { views: 10, adds: 2 }],
      ['new-tee', { views: 3, adds: 0 }],
    ]);
    expect([...counts]).toEqual([...expected]);
    expect(counts.size).toBe(3);
    expect([...counts.keys()]).toEqual(['cap', 'mug', 'new-tee']);
    expect([...counts.values()]).toEqual([...expected.values()]);
    expect(counts.get('cap')).toEqual({ views: 5, adds: 1 });
    expect(counts.get('hat')).toBeUndefined();
    expect(counts.has('hat')).toBe(false);
    expect(counts.has('new-tee')).toBe(true);
    const seen: string[] = [];
    counts.forEach((count, handle) => {
      seen.push(`${handle}:${count.views}`);
    });
    expect(seen).toEqual(['cap:5', 'mug:10', 'new-tee:3']);
  });

  it('sorts sums that are not in order, and adds up a handle a sum names twice', () => {
    const unordered = eventTotals([
      { handle: 'mug', views: 1, adds: 0 },
      { handle: 'B-cap', views: 2, adds: 0 },
      { handle: 'é-hat', views: 3, adds: 0 },
      { handle: 'mug', views: 4, adds: 1 },
      { handle: 'a-tee', views: 5, adds: 0 },
    ]);
    const counts = EventCounts.sum(unordered, past);
    expect([...counts.keys()]).toEqual(['B-cap', 'a-tee', 'cap', 'mug', 'é-hat']);
    expect(counts.get('mug')).toEqual({ views: 15, adds: 3 });
    for (const handle of counts.keys()) expect(counts.has(handle)).toBe(true);
    expect(counts.viewsOf('é-hat')).toBe(3);
    expect(counts.viewsOf('A-tee')).toBe(0);
  });

  it("reads a handle's views and every handle's views without making objects", () => {
    const counts = EventCounts.sum(past, today);
    expect(counts.viewsOf('cap')).toBe(5);
    expect(counts.viewsOf('hat')).toBe(0);
    expect(counts.views).toBe(18);
    expect(EventCounts.sum().views).toBe(0);
    expect(EventCounts.sum(eventTotals([])).size).toBe(0);
  });

  it("hands out counts of the caller's own", () => {
    const counts = EventCounts.sum(past);
    (counts.get('mug') as { views: number }).views = 99;
    expect(counts.viewsOf('mug')).toBe(10);
  });
});
