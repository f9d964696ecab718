import { describe, expect, it } from 'vitest';
import { buildContentModel, CONTENT_KEPT, similarTo, type ContentItem } from '../../../src/domain/models/content.js';
import { similarity } from '../../../src/domain/ranking/similarity.js';

/** A small deterministic generator, so the comparison below covers many shapes of catalog. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function catalog(size: number, seed: number): ContentItem[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const some = (list: readonly string[], n: number) => [...new Set(Array.from({ length: n }, () => pick(list)))];
  return Array.from({ length: size }, (_, i) => ({
    id: 1000 + i * 7,
    productType: pick(['Tents', 'Lights', 'Kitchen', '', 'tents']),
    vendor: pick(['Fjell', 'Lumo', 'Blaze', '']),
    tags: some(['camping', 'sale', 'new', 'light', 'cooking', 'winter'], Math.floor(next() * 4)),
    titleWords: some(['alpine', 'tent', 'lamp', 'stove', 'mug', 'ridge', 'head'], 1 + Math.floor(next() * 3)),
    priceBand: Math.floor(next() * 6) / 2,
    listable: next() > 0.1,
  }));
}

function shares(a: ContentItem, b: ContentItem): boolean {
  return (
    (a.productType !== '' && a.productType.toLowerCase() === b.productType.toLowerCase()) ||
    (a.vendor !== '' && a.vendor === b.vendor) ||
    a.tags.some((t) => b.tags.includes(t)) ||
    a.titleWords.some((w) => b.titleWords.includes(w))
  );
}

describe('content neighbours', () => {
  it('keep, for every product, the listable products sharing a feature that similarity() ranks best', () => {
    const items = catalog(300, 7);
    const model = buildContentModel(items);
    for (const item of items) {
      const expected = items
        .filter((other) => other.id !== item.id && other.listable && shares(item, other))
        .map((other) => ({ id: other.id, score: Math.fround(similarity(item, other)) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, CONTENT_KEPT);
      const i = model.ids.indexOf(item.id);
      const got = [];
      for (let n = model.lists.offsets[i]!; n < model.lists.offsets[i + 1]!; n++)
        got.push({ id: model.ids[model.lists.items[n]!]!, score: model.lists.scores[n]! });
      expect(got).toEqual(expected);
    }
  });

  it('merges several inputs by the sum of their scores, inputs left out', () => {
    const items: ContentItem[] = [
      {
        id: 1,
        productType: 'Tents',
        vendor: 'Fjell',
        tags: ['camping'],
        titleWords: ['alpine', 'tent'],
        priceBand: 3,
        listable: true,
      },
      { id: 2, productType: 'Tents', vendor: 'Lumo', tags: [], titleWords: ['dome'], priceBand: 9, listable: true },
      {
        id: 3,
        productType: 'Lights',
        vendor: 'Fjell',
        tags: ['camping'],
        titleWords: ['lamp'],
        priceBand: 3,
        listable: true,
      },
      { id: 4, productType: 'Lights', vendor: 'Lumo', tags: [], titleWords: ['lantern'], priceBand: 9, listable: true },
    ];
    const model = buildContentModel(items);
    // From 1: lamp 3 scores vendor 1 + tag 2 + band 1 = 4, dome 2 type 3.
    expect(similarTo(model, [1])).toEqual([3, 2]);
    // From 1 and 4: lamp 4 + 3 (type) = 7, dome 3 + 2 (vendor, band) = 5.
    expect(similarTo(model, [1, 4])).toEqual([3, 2]);
    expect(similarTo(model, [4])).toEqual([3, 2]); // 3: type 3; 2: vendor 1 + band 1
    expect(similarTo(model, [404])).toEqual([]);
  });

  it('reads a bounded number of candidates per product when one feature is everywhere', () => {
    const items = Array.from(
      { length: 5000 },
      (_, i): ContentItem => ({
        id: i + 1,
        productType: 'Same',
        vendor: '',
        tags: [],
        titleWords: [`w${i % 50}`],
        priceBand: 0,
        listable: true,
      }),
    );
    const started = process.cpuUsage();
    const model = buildContentModel(items);
    const used = process.cpuUsage(started);
    expect(model.lists.items.length).toBe(5000 * CONTENT_KEPT);
    // 5,000 products sharing a type would be 25 million pairs; the budget keeps it near 10 million at most.
    expect((used.user + used.system) / 1e6).toBeLessThan(30);
  });
});
