import { describe, expect, it } from 'vitest';
import type { Customer } from '../../src/domain/catalog/collection.js';
import { CustomerIndex } from '../../src/indexes/customer-index.js';

const customers: Customer[] = [
  { id: 6_200_000_000_003, email: 'zoë@example.com', tags: ['VIP', 'wholesale'] },
  { id: 2, email: null, tags: [] },
  { id: 6_200_000_000_001, email: 'anna@example.com', tags: [] },
];

describe('CustomerIndex', () => {
  it('answers as the Map of customers by id did', () => {
    const index = CustomerIndex.of(customers);
    const map = new Map(customers.map((c) => [c.id, c]));
    expect(index.size).toBe(3);
    for (const c of customers) {
      expect(index.has(c.id)).toBe(true);
      expect(index.get(c.id)).toEqual(map.get(c.id));
      expect(index.tagsOf(c.id)).toEqual(c.tags);
    }
    expect(index.has(6_200_000_000_002)).toBe(false);
    expect(index.get(6_200_000_000_002)).toBeUndefined();
    expect(index.tagsOf(1)).toBeUndefined();
    // Iterated in id order, every form.
    const sorted = [...customers].sort((a, b) => a.id - b.id);
    expect([...index.keys()]).toEqual(sorted.map((c) => c.id));
    expect([...index.values()]).toEqual(sorted);
    expect([...index]).toEqual(sorted.map((c) => [c.id, c]));
    const seen: number[] = [];
    index.forEach((c, id) => {
      seen.push(c.id === id ? id : -1);
    });
    expect(seen).toEqual(sorted.map((c) => c.id));
    // Given in id order (as the store lists them), the same index.
    const inOrder = CustomerIndex.of(sorted);
    expect([...inOrder]).toEqual([...index]);
    for (const c of customers) expect(inOrder.tagsOf(c.id)).toEqual(c.tags);
  });

  it("hands out customers of the caller's own: changing one leaves the index as it was", () => {
    const index = CustomerIndex.of(customers);
    index.get(6_200_000_000_003)!.tags.push('changed');
    expect(index.get(6_200_000_000_003)!.tags).toEqual(['VIP', 'wholesale']);
  });

  it('keeps each distinct list of tags once, and tells lists of the same words apart', () => {
    const lists = [
      ['newsletter'],
      ['vip', 'newsletter'],
      ['vip,newsletter'],
      ['vip\u0000newsletter'],
      ['newsletter', 'vip'],
      [],
    ];
    const many = Array.from({ length: 60 }, (_, i) => ({ id: 100 - i, email: null, tags: [...lists[i % 6]!] }));
    const index = CustomerIndex.of(many);
    expect(index.columns().tagLists).toHaveLength(5);
    expect(index.columns().tagged).toHaveLength(50);
    for (const c of many) {
      expect(index.tagsOf(c.id)).toEqual(c.tags);
      expect(index.get(c.id)!.tags).toEqual(c.tags);
    }
    // One list, shared: what a caller of `get` changes is its own copy.
    index.get(100)!.tags.push('changed');
    expect(index.tagsOf(94)).toEqual(['newsletter']);
    // The kept list itself, the same for every customer holding it: what a rule's lower-cased tags are kept by.
    expect(index.tagsOf(94)).toBe(index.tagsOf(100));
  });

  it('is empty for a shop without customers', () => {
    const index = CustomerIndex.of([]);
    expect(index.size).toBe(0);
    expect(index.get(1)).toBeUndefined();
    expect([...index]).toEqual([]);
  });
});
