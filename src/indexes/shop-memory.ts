/**
 * Per-shop in-memory state that counts against the node's memory budget. The catalog index is
 * one; any other component that keeps something per shop (a learned model, a cache of its own)
 * registers with the node's `Residency`, reports its size and drops a shop when told to.
 */
export interface ShopMemory {
  /** Estimated bytes held for the shop now (0 when nothing is held). */
  bytes(shopId: number): number;
  /** Drops everything held for the shop; it is built again when the shop is next requested. */
  evict(shopId: number): void;
  /** Told when a shop becomes resident (loaded again after an eviction, or for the first time). */
  onResident?(shopId: number): void;
}
