/**
 * The binary matrix A of users × items that Microsoft's SAR starts from, kept sparse in both
 * directions (compressed rows): each user's items and each item's users, as dense indices.
 * A user is a customer, or one order with `basis = order`; an item is a product (or a handle).
 */
export interface Incidence {
  readonly userCount: number;
  readonly itemCount: number;
  /** Items of user u: `userItems[userOffsets[u] .. userOffsets[u + 1])`, ascending, each once. */
  readonly userOffsets: Int32Array;
  readonly userItems: Int32Array;
  /** Users of item i: `itemUsers[itemOffsets[i] .. itemOffsets[i + 1])`, ascending, each once. */
  readonly itemOffsets: Int32Array;
  readonly itemUsers: Int32Array;
}

/** Dense indices for keys met in order: the first key seen gets 0. */
export class KeyIndex<K> {
  readonly keys: K[] = [];
  private readonly index = new Map<K, number>();

  /** The key's index, adding the key when it is new. */
  of(key: K): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.keys.push(key);
      this.index.set(key, i);
    }
    return i;
  }

  get(key: K): number | undefined {
    return this.index.get(key);
  }

  get size(): number {
    return this.keys.length;
  }
}

/** Builds the incidence from (user, item) pairs given as parallel index arrays; repeats count once. */
export function buildIncidence(
  users: ArrayLike<number>,
  items: ArrayLike<number>,
  userCount: number,
  itemCount: number,
): Incidence {
  const rows = compress(users, items, userCount);
  const columns = compress(items, users, itemCount);
  return {
    userCount,
    itemCount,
    userOffsets: rows.offsets,
    userItems: rows.values,
    itemOffsets: columns.offsets,
    itemUsers: columns.values,
  };
}

/** Groups `values` by `keys` (0 … count−1) into compressed rows, each row ascending and without repeats. */
function compress(
  keys: ArrayLike<number>,
  values: ArrayLike<number>,
  count: number,
): { offsets: Int32Array; values: Int32Array } {
  const starts = new Int32Array(count + 1);
  for (let n = 0; n < keys.length; n++) starts[keys[n]! + 1]!++;
  for (let k = 0; k < count; k++) starts[k + 1]! += starts[k]!;
  const fill = starts.slice(0, count);
  const grouped = new Int32Array(keys.length);
  for (let n = 0; n < keys.length; n++) grouped[fill[keys[n]!]!++] = values[n]!;
  const offsets = new Int32Array(count + 1);
  let write = 0;
  for (let k = 0; k < count; k++) {
    const row = grouped.subarray(starts[k]!, starts[k + 1]!).sort();
    offsets[k] = write;
    // Written rows never overtake the one being read: write <= starts[k] + n.
    for (let n = 0; n < row.length; n++)
      if (write === offsets[k] || grouped[write - 1] !== row[n]) grouped[write++] = row[n]!;
  }
  offsets[count] = write;
  return { offsets, values: grouped.slice(0, write) };
}

/** c_ii: how many users hold item i. */
export function occurrences(incidence: Incidence, item: number): number {
  return incidence.itemOffsets[item + 1]! - incidence.itemOffsets[item]!;
}

/** How many items have at least one user. */
export function itemsInUse(incidence: Incidence): number {
  let n = 0;
  for (let i = 0; i < incidence.itemCount; i++) if (occurrences(incidence, i) > 0) n++;
  return n;
}

/** How many users hold at least one item. */
export function usersInUse(incidence: Incidence): number {
  let n = 0;
  for (let u = 0; u < incidence.userCount; u++) if (incidence.userOffsets[u + 1]! > incidence.userOffsets[u]!) n++;
  return n;
}
