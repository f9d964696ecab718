/** Mulberry32: a tiny 32-bit PRNG whose sequence depends only on its seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A seed for an independent stream, so one part of the shop does not shift when another changes. */
export function deriveSeed(seed: number, stream: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

/** An item of a non-empty list; throws instead of returning undefined. */
export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return item;
}

/** Seeded random helpers built on mulberry32. */
export class Random {
  private readonly source: () => number;

  constructor(seed: number) {
    this.source = mulberry32(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    return this.source();
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.source() * (max - min + 1));
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.source() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.source() < p;
  }

  /** One item, uniformly. */
  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.source() * items.length));
  }

  /** One item, with probability proportional to its weight. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, w) => sum + w, 0);
    let roll = this.source() * total;
    for (let i = 0; i < items.length; i++) {
      roll -= at(weights, i);
      if (roll < 0) return at(items, i);
    }
    return at(items, items.length - 1);
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.source() * (i + 1));
      [copy[i], copy[j]] = [at(copy, j), at(copy, i)];
    }
    return copy;
  }

  /** k distinct items in random order (fewer when the list is shorter). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, k);
  }
}

/** Draws indices in proportion to fixed weights in O(log n) per draw. */
export class WeightedSampler {
  private readonly cumulative: Float64Array;
  readonly total: number;

  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  /** An index, or -1 when every weight is zero. */
  draw(rng: Random): number {
    if (this.total <= 0) return -1;
    const roll = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] ?? 0) > roll) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Zipf-like weights 1 / (rank + 1)^s for ranks 0..n-1. */
export function zipfWeights(n: number, s: number): number[] {
  return Array.from({ length: n }, (_, rank) => 1 / (rank + 1) ** s);
}
