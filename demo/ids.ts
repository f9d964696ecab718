/** Where each kind of id starts: large, platform-like and far apart, all below 2^53. */
export const ID_BASE = {
  product: 7_000_000_000,
  variant: 42_000_000_000,
  inventoryItem: 44_000_000_000,
  option: 9_100_000_000,
  image: 31_000_000_000,
  metafield: 23_000_000_000,
  collection: 410_000_000_000,
  customer: 6_200_000_000_000,
  market: 52_000_000,
  order: 5_100_000_000_000,
} as const;

/** A counter handing out consecutive ids after a base: base + 1, base + 2, … */
export function idSequence(base: number): () => number {
  let last = base;
  return () => ++last;
}

export interface IdSequences {
  variant: () => number;
  inventoryItem: () => number;
  option: () => number;
  image: () => number;
  metafield: () => number;
}

/** Fresh counters for the per-product child rows of one generated catalog. */
export function catalogIdSequences(): IdSequences {
  return {
    variant: idSequence(ID_BASE.variant),
    inventoryItem: idSequence(ID_BASE.inventoryItem),
    option: idSequence(ID_BASE.option),
    image: idSequence(ID_BASE.image),
    metafield: idSequence(ID_BASE.metafield),
  };
}
