/** What content similarity compares (docs/lists.md: type, vendor, tags, title words, price band). */
export interface ContentProfile {
  id: number;
  productType: string;
  vendor: string;
  tags: readonly string[]; // lower-case
  titleWords: readonly string[]; // lower-case, stop words removed
  /** log2 of the lowest price: products within one band cost about the same. */
  priceBand: number;
}

const STOP = new Set(['the', 'and', 'for', 'with', 'of', 'a', 'an', 'in', 'on', 'to', 'set']);

export function titleWords(title: string): string[] {
  return [
    ...new Set(
      title
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 1 && !STOP.has(w)),
    ),
  ];
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  let shared = 0;
  for (const x of b) if (set.has(x)) shared++;
  return shared / (a.length + b.length - shared);
}

/** A similarity score of two products; 0 means nothing in common. */
export function similarity(a: ContentProfile, b: ContentProfile): number {
  let score = 0;
  if (a.productType !== '' && a.productType.toLowerCase() === b.productType.toLowerCase()) score += 3;
  if (a.vendor !== '' && a.vendor.toLowerCase() === b.vendor.toLowerCase()) score += 1;
  score += 2 * jaccard(a.tags, b.tags);
  score += 1.5 * jaccard(a.titleWords, b.titleWords);
  if (Math.abs(a.priceBand - b.priceBand) <= 0.5) score += 1;
  return score;
}

/** Products most like the inputs (summed over inputs), best first, then by id; inputs excluded. */
export function rankSimilar(inputs: readonly ContentProfile[], candidates: Iterable<ContentProfile>): number[] {
  const inputIds = new Set(inputs.map((p) => p.id));
  const scored: { id: number; score: number }[] = [];
  for (const c of candidates) {
    if (inputIds.has(c.id)) continue;
    let score = 0;
    for (const i of inputs) score += similarity(i, c);
    if (score > 0) scored.push({ id: c.id, score });
  }
  return scored.sort((x, y) => y.score - x.score || x.id - y.id).map((s) => s.id);
}
