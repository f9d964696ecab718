import type { ShopMemory } from './shop-memory.js';
import { ShopUses } from './shop-uses.js';

/** A pin older than this no longer protects its shop: a request that never ended must not hold memory forever. */
const PIN_MAX_MS = 60_000;

/**
 * Resident memory per byte of estimated live state (allocator and heap overhead around what is
 * alive), measured by `npm run bench:tenants` (docs/scaling.md), and the headroom kept free for
 * garbage between collections. The headroom is a share of the budget, not a fixed amount: a fixed
 * 96 MB took all of a small node's budget. What garbage really takes is measured as it happens:
 * resident memory past 90% of the budget shrinks the shops' share (currentAllowance).
 */
export const RSS_PER_ESTIMATED_BYTE = 1.25;
const GARBAGE_HEADROOM_SHARE = 0.2;

/** Resident memory past this share of the budget shrinks the shops' share (see trim). */
const SOFT_LIMIT_SHARE = 0.9;

/**
 * Resident memory is read at most this often: the kernel's figure cost 240 µs a read in a node
 * loading shops (its threads allocating and freeing pages meanwhile), 3% of its CPU when read at
 * every load, and it moves little between loads.
 */
const RSS_READ_EVERY_MS = 250;

/** The least the shops may take, whatever the baseline: one shop always fits. */
const MIN_ALLOWANCE = 16 * 1024 * 1024;

/**
 * Requests counted between two halvings of the shops' use counts, per resident shop (at least 64
 * shops' worth): long enough for the counts to tell a popular shop from the tail (a simulation of
 * Zipf traffic came within 2% of the best possible hit rate), short enough that a shop's traffic
 * of a minute ago counts for little on a busy node.
 */
const AGING_PER_RESIDENT = 32;

export interface BudgetOptions {
  /** The process's memory budget (REBOUND_MEMORY_BUDGET_MB), in bytes; Infinity for none. */
  budgetBytes: number;
  /** Memory set aside within the budget for other bounded parts (the answer cache). */
  reserveBytes?: number;
  /** Resident memory of the process before any shop is loaded; read once, at the first load. */
  baseline?: () => number;
  /** The shops' share given outright, in estimated bytes (tests, tools), instead of derived from the budget. */
  allowanceBytes?: number;
  /** The process's resident memory now: past 90% of the budget, the shops' share shrinks by the excess. */
  rss?: () => number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * Which shops this node holds in memory and the budget they share. When the estimated bytes of
 * every registered holder pass the budget, the shops used least lately are evicted from all
 * holders at once (of two used as much, the least recently used), except shops pinned by requests
 * in flight.
 */
export class Residency {
  private readonly holders: ShopMemory[] = [];
  /** Resident shops, least recently used first (a Map keeps insertion order; touching re-inserts). */
  private readonly recent = new Map<number, true>();
  /** The shop last made most recently used (the last key of `recent`), if it is still resident. */
  private newest: number | undefined;
  private readonly pins = new Map<number, { count: number; since: number }>();
  private readonly uses = new ShopUses(() => AGING_PER_RESIDENT * Math.max(64, this.recent.size));
  private allowance: number | null = null;
  private lastWarning = 0;
  private lastRss = 0;
  private rssReadAt = -Infinity;
  loads = 0;
  evictions = 0;

  constructor(private readonly options: BudgetOptions = { budgetBytes: Infinity }) {}

  /**
   * Estimated bytes the shops' state may take: the budget less the baseline measured at the first
   * load, the reserve and the garbage headroom, divided by the overhead around live state.
   */
  get allowanceBytes(): number {
    if (this.allowance !== null) return this.allowance;
    if (this.options.allowanceBytes !== undefined) {
      this.allowance = this.options.allowanceBytes;
      return this.allowance;
    }
    const { budgetBytes, reserveBytes = 0, baseline } = this.options;
    if (!Number.isFinite(budgetBytes)) return Infinity;
    const base = baseline?.() ?? 0;
    const headroom = GARBAGE_HEADROOM_SHARE * budgetBytes;
    this.allowance = Math.max(
      MIN_ALLOWANCE,
      Math.floor((budgetBytes - base - reserveBytes - headroom) / RSS_PER_ESTIMATED_BYTE),
    );
    this.options.log?.info(
      {
        budgetMb: Math.round(budgetBytes / 2 ** 20),
        baselineMb: Math.round(base / 2 ** 20),
        reserveMb: Math.round(reserveBytes / 2 ** 20),
        allowanceMb: Math.round(this.allowance / 2 ** 20),
      },
      'memory budget for shops',
    );
    return this.allowance;
  }

  /** Adds a holder of per-shop state; its bytes count from now on and it is told of evictions. */
  register(holder: ShopMemory): void {
    this.holders.push(holder);
  }

  /** The resident shop was read just now (an admin call, a sync): it becomes the most recently used. */
  touch(shopId: number): void {
    this.promote(shopId);
  }

  /** A request for the resident shop: it is the most recently used, and used once more lately. */
  use(shopId: number): void {
    if (this.promote(shopId)) this.uses.add(shopId);
  }

  /** Makes a resident shop the most recently used; false when it is not resident. */
  private promote(shopId: number): boolean {
    // A hot shop's next request mostly finds it newest already: no delete and re-insert on every request.
    if (shopId === this.newest) return true;
    if (!this.recent.delete(shopId)) return false;
    this.recent.set(shopId, true);
    this.newest = shopId;
    return true;
  }

  /**
   * A shop's state was loaded: it becomes the most recently used, and others make room for it. A
   * load is for a request: it counts as one use, so the shop is not the next to go before that
   * request has it.
   */
  loaded(shopId: number): void {
    const fresh = !this.recent.has(shopId);
    this.recent.delete(shopId);
    this.recent.set(shopId, true);
    this.newest = shopId;
    if (fresh) {
      this.loads++;
      this.uses.add(shopId);
      for (const holder of this.holders) holder.onResident?.(shopId);
    }
    this.trim(shopId);
  }

  /** The shop is gone (deleted): drop it without counting an eviction. */
  forget(shopId: number): void {
    this.drop(shopId);
    this.uses.forget(shopId);
    for (const holder of this.holders) holder.evict(shopId);
  }

  isResident(shopId: number): boolean {
    return this.recent.has(shopId);
  }

  get residentShops(): number {
    return this.recent.size;
  }

  /** Estimated bytes of a resident shop across every holder; undefined for one not in memory. */
  residentBytes(shopId: number): number | undefined {
    return this.isResident(shopId) ? this.shopBytes(shopId) : undefined;
  }

  /** Estimated bytes of one shop across every holder. */
  shopBytes(shopId: number): number {
    let total = 0;
    for (const holder of this.holders) total += holder.bytes(shopId);
    return total;
  }

  private drop(shopId: number): void {
    this.recent.delete(shopId);
    if (shopId === this.newest) this.newest = undefined;
  }

  /** Estimated bytes of every resident shop. */
  estimatedBytes(): number {
    let total = 0;
    for (const shopId of this.recent.keys()) total += this.shopBytes(shopId);
    return total;
  }

  /** Keeps a shop resident until the returned release is called (once; later calls do nothing). */
  pin(shopId: number): () => void {
    const pin = this.pins.get(shopId);
    if (pin) {
      pin.count++;
      pin.since = Date.now();
    } else {
      this.pins.set(shopId, { count: 1, since: Date.now() });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.pins.get(shopId);
      if (current && --current.count <= 0) this.pins.delete(shopId);
    };
  }

  /** Resident shops least recently used first, but for `keep` and the pinned ones. */
  private *evictable(keep: number | undefined, now: number): Generator<number> {
    for (const shopId of this.recent.keys()) if (shopId !== keep && !this.pinned(shopId, now)) yield shopId;
  }

  /** Every resident shop in the order eviction would take them (pins aside): for operators. */
  evictionOrder(): number[] {
    return this.uses.fewestFirst(this.recent.keys());
  }

  private pinned(shopId: number, now: number): boolean {
    const pin = this.pins.get(shopId);
    if (!pin) return false;
    if (now - pin.since < PIN_MAX_MS) return true;
    this.pins.delete(shopId);
    return false;
  }

  /**
   * The share for now: when resident memory passes 90% of the budget anyway (garbage and allocator
   * overhead under a high rate of loads), the share gives up the excess until memory comes back.
   */
  private currentAllowance(now: number): number {
    const allowance = this.allowanceBytes;
    const { rss, budgetBytes } = this.options;
    if (!rss || !Number.isFinite(allowance)) return allowance;
    if (now - this.rssReadAt >= RSS_READ_EVERY_MS) {
      this.rssReadAt = now;
      this.lastRss = rss();
    }
    const excess = this.lastRss - SOFT_LIMIT_SHARE * budgetBytes;
    return excess > 0 ? Math.max(MIN_ALLOWANCE, allowance - excess / RSS_PER_ESTIMATED_BYTE) : allowance;
  }

  /** Evicts the shops used least lately until the estimate is within the budget; `keep` stays. */
  trim(keep?: number): void {
    const now = Date.now();
    const allowance = this.currentAllowance(now);
    if (allowance === Infinity) return;
    let total = this.estimatedBytes();
    // A load evicts one small shop, found by a scan; past one, the order is sorted once (a large shop's
    // load, or a share shrunk by resident memory, can take many of thousands).
    let order: number[] | undefined;
    let next = 0;
    while (total > allowance) {
      const shopId = order ? order[next++] : this.uses.fewest(this.evictable(keep, now));
      if (shopId === undefined) break;
      total -= this.shopBytes(shopId);
      this.drop(shopId);
      for (const holder of this.holders) holder.evict(shopId);
      this.evictions++;
      if (order === undefined && total > allowance) order = this.uses.fewestFirst(this.evictable(keep, now));
    }
    if (total > allowance && now - this.lastWarning > 60_000) {
      this.lastWarning = now;
      this.options.log?.warn(
        { estimatedBytes: total, allowanceBytes: allowance },
        'over the memory budget: every resident shop is in use by a request',
      );
    }
  }
}
