import { describe, expect, it } from 'vitest';
import { EventCounts } from '../../src/indexes/event-counts.js';

describe('EventCounts', () => {
  const past = [
    { handle: 'mug', views: 10, adds: 2 },
    { handle: 'cap', views: 4, adds: 0 },
  ];
  const today = [
    { handle: 'cap', views: 1, adds: 1 },
    { handle: 'new-tee', views: 3, adds: 0 },
  ];

  it('adds the sums up handle by handle, and answers as the map of counts did', () => {
    const counts = EventCounts.sum(past, today);
    const expected = new Map([
      ['mug', { views: 10, adds: 2 }],
      ['cap', { views: 5, adds: 1 }],
      ['new-tee', { views: 3, adds: 0 }],
    ]);
    expect(new Map(counts)).toEqual(expected);
    expect(counts.size).toBe(3);
    expect([...counts.keys()]).toEqual(['mug', 'cap', 'new-tee']);
    expect([...counts.values()]).toEqual([...expected.values()]);
    expect(counts.get('cap')).toEqual({ views: 5, adds: 1 });
    expect(counts.get('hat')).toBeUndefined();
    expect(counts.has('hat')).toBe(false);
    const seen: string[] = [];
    counts.forEach((count, handle) => {
      seen.push(`${handle}:${count.views}`);
    });
    expect(seen).toEqual(['mug:10', 'cap:5', 'new-tee:3']);
  });

  it("reads a handle's views and every handle's views without making objects", () => {
    const counts = EventCounts.sum(past, today);
    expect(counts.viewsOf('cap')).toBe(5);
    expect(counts.viewsOf('hat')).toBe(0);
    expect(counts.views).toBe(18);
    expect(EventCounts.sum().views).toBe(0);
  });

  it("hands out counts of the caller's own", () => {
    const counts = EventCounts.sum(past);
    (counts.get('mug') as { views: number }).views = 99;
    expect(counts.viewsOf('mug')).toBe(10);
  });
});
