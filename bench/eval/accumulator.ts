/** Dense per-product scores for the customer-neighbour candidates (personal-knn.ts, repeat-explore.ts). */

/** A sparse non-negative vector over product indices. */
export interface Sparse {
  ids: Int32Array;
  values: Float64Array;
}

/** Dense scores over products, cleared through the list of those touched. */
export class Accumulator {
  readonly values: Float64Array;
  private readonly touched: Int32Array;
  private readonly seen: Uint8Array;
  private size = 0;

  constructor(n: number) {
    this.values = new Float64Array(n);
    this.touched = new Int32Array(n);
    this.seen = new Uint8Array(n);
  }

  add(j: number, x: number): void {
    if (this.seen[j] === 0) {
      this.seen[j] = 1;
      this.touched[this.size++] = j;
    }
    this.values[j]! += x;
  }

  addVector(v: Sparse, scale: number): void {
    for (let n = 0; n < v.ids.length; n++) this.add(v.ids[n]!, scale * v.values[n]!);
  }

  /** The k best positive products (score descending, ties to the lower index), then cleared. */
  takeTop(k: number, skip?: (j: number) => boolean): number[] {
    const best: number[] = [];
    for (let t = 0; t < this.size; t++) {
      const j = this.touched[t]!;
      const s = this.values[j]!;
      if (s <= 0 || skip?.(j)) continue;
      const worse = (i: number) => this.values[i]! < s || (this.values[i]! === s && i > j);
      if (best.length === k && !worse(best[k - 1]!)) continue;
      let at = best.length === k ? k - 1 : best.length;
      while (at > 0 && worse(best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = j;
    }
    this.clear();
    return best.slice(0, k);
  }

  clear(): void {
    for (let t = 0; t < this.size; t++) {
      this.values[this.touched[t]!] = 0;
      this.seen[this.touched[t]!] = 0;
    }
    this.size = 0;
  }
}
