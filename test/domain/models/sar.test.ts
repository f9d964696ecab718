import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIncidence, itemsInUse, KeyIndex, usersInUse } from '../../../src/domain/models/incidence.js';
import { purchaseIncidence, sortedIndexOf, type ModelLine } from '../../../src/domain/models/build.js';
import { buildNeighbourLists } from '../../../src/domain/models/neighbours.js';
import { sarNeighbours, sarScore, SAR_SIMILARITIES, type SarSimilarity } from '../../../src/domain/models/sar.js';

/** Users × items from (user, item) pairs; items are indexed by their id's rank so ties order by id. */
function matrix(pairs: readonly [string, number][]) {
  const ids = Float64Array.from(new Set(pairs.map(([, item]) => item))).sort();
  const users = new KeyIndex<string>();
  const rows = pairs.map(([user]) => users.of(user));
  const columns = pairs.map(([, item]) => ids.indexOf(item));
  return { ids, incidence: buildIncidence(rows, columns, users.size, ids.length) };
}

function neighboursOf(pairs: readonly [string, number][], item: number, similarity: SarSimilarity, threshold = 1) {
  const { ids, incidence } = matrix(pairs);
  return sarNeighbours(incidence, ids.indexOf(item), { similarity, threshold, order: (j) => ids[j]! }).map((n) => ({
    id: ids[n.item]!,
    score: n.score,
    c: n.coOccurrences,
  }));
}

describe('SAR similarity on a hand-checked example', () => {
  // Three customers, four products: A bought 1, 2, 3; B bought 1, 2 (and 1 again); C bought 2, 4.
  // C = AᵀA: c11 = 2, c22 = 3, c33 = 1, c44 = 1; c12 = 2, c13 = 1, c23 = 1, c24 = 1, c14 = c34 = 0.
  const pairs: [string, number][] = [
    ['A', 1],
    ['A', 2],
    ['A', 3],
    ['B', 1],
    ['B', 2],
    ['B', 1],
    ['C', 2],
    ['C', 4],
  ];

  it('counts users, not purchases, and products bought', () => {
    const { incidence } = matrix(pairs);
    expect(usersInUse(incidence)).toBe(3);
    expect(itemsInUse(incidence)).toBe(4);
  });

  it('count = c_ij, by score then product id, the product itself and zeros left out', () => {
    expect(neighboursOf(pairs, 2, 'count')).toEqual([
      { id: 1, score: 2, c: 2 },
      { id: 3, score: 1, c: 1 },
      { id: 4, score: 1, c: 1 },
    ]);
    expect(neighboursOf(pairs, 4, 'count')).toEqual([{ id: 2, score: 1, c: 1 }]);
  });

  it('jaccard = c_ij / (c_ii + c_jj − c_ij)', () => {
    expect(neighboursOf(pairs, 2, 'jaccard')).toEqual([
      { id: 1, score: 2 / 3, c: 2 },
      { id: 3, score: 1 / 3, c: 1 },
      { id: 4, score: 1 / 3, c: 1 },
    ]);
    expect(neighboursOf(pairs, 1, 'jaccard')).toEqual([
      { id: 2, score: 2 / 3, c: 2 },
      { id: 3, score: 1 / 2, c: 1 },
    ]);
  });

  it('lift = c_ij / (c_ii · c_jj)', () => {
    expect(neighboursOf(pairs, 1, 'lift')).toEqual([
      { id: 3, score: 1 / 2, c: 1 },
      { id: 2, score: 1 / 3, c: 2 },
    ]);
    expect(neighboursOf(pairs, 3, 'lift')).toEqual([
      { id: 1, score: 1 / 2, c: 1 },
      { id: 2, score: 1 / 3, c: 1 },
    ]);
  });

  it('the support threshold zeroes pairs below it, reporting raw counts for the rest', () => {
    expect(neighboursOf(pairs, 1, 'jaccard', 2)).toEqual([{ id: 2, score: 2 / 3, c: 2 }]);
    expect(neighboursOf(pairs, 3, 'count', 2)).toEqual([]);
    expect(sarScore('lift', 1, 1, 1, 2)).toBe(0);
  });

  it('the sparse top-k lists agree with the exact rows', () => {
    const { ids, incidence } = matrix(pairs);
    const lists = buildNeighbourLists(incidence, (cij, _w, cii, cjj) => sarScore('jaccard', cij, cii, cjj, 1), {
      k: 2,
      threshold: 1,
      ids,
    });
    const of = (id: number) => {
      const i = ids.indexOf(id);
      return [...lists.items.subarray(lists.offsets[i]!, lists.offsets[i + 1]!)].map((j) => ids[j]);
    };
    expect(of(2)).toEqual([1, 3]); // k = 2: 4 ties with 3 and loses on id
    expect(of(4)).toEqual([2]);
  });
});

describe('SAR on order lines, both bases, hand-checked', () => {
  // The same three customers and four products, now as orders: A buys {1, 2} then {3}; B buys {1, 2}
  // then {1}; C buys {2, 4}. Basis customer: as above (c12 = 2, c13 = c23 = c24 = 1, c11 = 2, c22 = 3).
  // Basis order, five users o1 {1,2}, o2 {3}, o3 {1,2}, o4 {1}, o5 {2,4}: c11 = 3, c22 = 3, c33 = c44 = 1,
  // c12 = 2, c24 = 1, c13 = c23 = c14 = c34 = 0.
  const orders: [number, number, number[]][] = [
    [1, 100, [1, 2]],
    [2, 100, [3]],
    [3, 200, [1, 2]],
    [4, 200, [1]],
    [5, 300, [2, 4]],
  ];
  const lines: ModelLine[] = orders.flatMap(([orderId, customerId, items]) =>
    items.map((productId) => ({ orderId, productId, customerId, createdAt: orderId })),
  );
  const products = Float64Array.from([1, 2, 3, 4]);

  function neighbours(basis: 'customer' | 'order', item: number, similarity: SarSimilarity, threshold = 1) {
    const { incidence } = purchaseIncidence(lines, basis, (id) => sortedIndexOf(products, id), products.length, 5);
    return sarNeighbours(incidence, sortedIndexOf(products, item), {
      similarity,
      threshold,
      order: (j) => products[j]!,
    }).map((n) => ({
      id: products[n.item]!,
      score: n.score,
      c: n.coOccurrences,
    }));
  }

  it('counts customers under basis customer and orders under basis order', () => {
    expect(usersInUse(purchaseIncidence(lines, 'customer', (id) => sortedIndexOf(products, id), 4, 5).incidence)).toBe(
      3,
    );
    expect(usersInUse(purchaseIncidence(lines, 'order', (id) => sortedIndexOf(products, id), 4, 5).incidence)).toBe(5);
  });

  it('count', () => {
    expect(neighbours('customer', 3, 'count')).toEqual([
      { id: 1, score: 1, c: 1 },
      { id: 2, score: 1, c: 1 },
    ]);
    expect(neighbours('order', 3, 'count')).toEqual([]); // 3 was always bought alone
    expect(neighbours('order', 2, 'count')).toEqual([
      { id: 1, score: 2, c: 2 },
      { id: 4, score: 1, c: 1 },
    ]);
  });

  it('jaccard', () => {
    expect(neighbours('customer', 2, 'jaccard')).toEqual([
      { id: 1, score: 2 / 3, c: 2 },
      { id: 3, score: 1 / 3, c: 1 },
      { id: 4, score: 1 / 3, c: 1 },
    ]);
    expect(neighbours('order', 2, 'jaccard')).toEqual([
      { id: 1, score: 2 / 4, c: 2 },
      { id: 4, score: 1 / 3, c: 1 },
    ]);
  });

  it('lift, with and without a support threshold', () => {
    // basis customer: 2/(3·2), 1/(3·1), 1/(3·1): a three-way tie, by id.
    expect(neighbours('customer', 2, 'lift')).toEqual([
      { id: 1, score: 1 / 3, c: 2 },
      { id: 3, score: 1 / 3, c: 1 },
      { id: 4, score: 1 / 3, c: 1 },
    ]);
    expect(neighbours('customer', 2, 'lift', 2)).toEqual([{ id: 1, score: 1 / 3, c: 2 }]);
    // basis order: the rare 4 outranks 1 (1/(3·1) against 2/(3·3)) until the threshold removes it.
    expect(neighbours('order', 2, 'lift')).toEqual([
      { id: 4, score: 1 / 3, c: 1 },
      { id: 1, score: 2 / 9, c: 2 },
    ]);
    expect(neighbours('order', 2, 'lift', 2)).toEqual([{ id: 1, score: 2 / 9, c: 2 }]);
    expect(neighbours('order', 2, 'jaccard', 3)).toEqual([]);
  });
});

/**
 * The public data sets (docs/evaluation.md): REBOUND_DATA_DIR,
 * else a `shared/data` beside the repository; absent data skips.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATA = [
  process.env.REBOUND_DATA_DIR,
  join(ROOT, '..', 'shared', 'data'),
  join(ROOT, '..', '..', 'shared', 'data'),
].find((d) => d && existsSync(d));
const MS_STORE = DATA ? join(DATA, 'ms-store-sar', 'ms_usage_train.csv') : '';

if (!existsSync(MS_STORE)) {
  console.warn(
    '\n!!! SKIPPED: SAR on the Microsoft store log: ms-store-sar/ms_usage_train.csv not found ' +
      '(set REBOUND_DATA_DIR or put shared/data beside the repository; docs/evaluation.md, "Data")\n',
  );
}

describe.skipIf(!existsSync(MS_STORE))('SAR similarity on the Microsoft store log (training part)', () => {
  const rows = (existsSync(MS_STORE) ? readFileSync(MS_STORE, 'utf8') : '')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').map((f) => f.replace(/^"|"$/g, '')));
  const codes = [...new Set(rows.map((r) => r[1]!))].sort();
  const idOf = (code: string) => codes.indexOf(code) + 1;

  /** The same similarities computed the plain way: sets of users per product, intersected pair by pair. */
  function independent(basis: 'customer' | 'order', similarity: SarSimilarity, threshold: number, item: number) {
    const usersOf = new Map<number, Set<string>>();
    for (const [user, code, time] of rows) {
      const key = basis === 'customer' ? user! : `${user}|${time}`;
      const set = usersOf.get(idOf(code!)) ?? new Set<string>();
      set.add(key);
      usersOf.set(idOf(code!), set);
    }
    const mine = usersOf.get(item)!;
    const out: { id: number; score: number; c: number }[] = [];
    for (const [other, theirs] of usersOf) {
      if (other === item) continue;
      const c = [...mine].filter((u) => theirs.has(u)).length;
      if (c === 0 || c < threshold) continue;
      const score =
        similarity === 'count'
          ? c
          : similarity === 'jaccard'
            ? c / (mine.size + theirs.size - c)
            : c / (mine.size * theirs.size);
      out.push({ id: other, score, c });
    }
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  for (const basis of ['customer', 'order'] as const) {
    it(`matches an independent computation for every similarity, basis ${basis}`, () => {
      const pairs = rows.map(([user, code, time]): [string, number] => [
        basis === 'customer' ? user! : `${user}|${time}`,
        idOf(code!),
      ]);
      for (const similarity of SAR_SIMILARITIES) {
        for (const threshold of [1, 3]) {
          for (const item of [1, 10, 50, 101]) {
            const ours = neighboursOf(pairs, item, similarity, threshold);
            const theirs = independent(basis, similarity, threshold, item);
            expect(ours.map((n) => [n.id, n.c])).toEqual(theirs.map((n) => [n.id, n.c]));
            ours.forEach((n, i) => {
              expect(n.score).toBeCloseTo(theirs[i]!.score, 12);
            });
          }
        }
      }
    });
  }
});
