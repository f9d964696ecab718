import type { Logger } from 'pino';
import type { Shop } from '../domain/shop.js';
import type { SnapshotStore } from '../store/kysely/snapshots.js';
import { nextTurn } from './turns.js';
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_FORMAT, snapshotBytes, type LoadParts } from './shop-snapshot.js';

/**
 * A snapshot larger than this is not written (a shop of few products and a long order history):
 * it is read in one stretch of the event loop, where a load of parts takes several turns. The
 * multi-tenant benchmark's 150-product shop's is 0.2 MB, its 1,000-product shop's 1.3 MB.
 */
const MAX_SNAPSHOT_BYTES = 4 * 1024 * 1024;

/** Reads and writes shops' load snapshots for the loader (docs/scaling.md, "Load snapshots"). */
export class ShopSnapshots {
  /** Loads that read the shop's snapshot (since start); the others read it part by part. */
  loads = 0;
  /** Snapshots being written. */
  private readonly writing = new Set<Promise<unknown>>();

  constructor(
    private readonly store: SnapshotStore,
    private readonly log?: Logger,
  ) {}

  /** The parts of the shop's stored snapshot of its version; null when there is none, or it cannot be read. */
  async read(shop: Shop): Promise<LoadParts | null> {
    const body = await this.store.getShopSnapshot(shop.id, shop.data_version, SNAPSHOT_FORMAT);
    if (!body) return null;
    try {
      const parts = decodeSnapshot(body);
      this.loads++;
      return parts;
    } catch (error) {
      this.log?.warn({ shopId: shop.id, err: error }, 'shop snapshot unreadable; the shop is read part by part');
      return null;
    }
  }

  /**
   * Writes a snapshot of parts read at the shop's version, a turn later (off the load's path); a
   * write that moved the version meanwhile leaves it unwritten. A failure costs only the next
   * load's speed. Parts whose figures hold the time of their load (`timeBound`) are not kept.
   */
  keep(shop: Shop, parts: LoadParts): void {
    if (parts.sales.timeBound || snapshotBytes(parts) > MAX_SNAPSHOT_BYTES) return;
    const writing = nextTurn()
      .then(() => {
        const body = encodeSnapshot(parts);
        if (body.byteLength > MAX_SNAPSHOT_BYTES) return; // the estimate counts at least as much; a backstop
        return this.store.putShopSnapshot(shop.id, shop.data_version, SNAPSHOT_FORMAT, body);
      })
      .catch((error) => this.log?.warn({ shopId: shop.id, err: error }, 'shop snapshot not written'))
      .finally(() => this.writing.delete(writing));
    this.writing.add(writing);
  }

  /** Resolves once the snapshots being written now are written (or given up): before the store closes. */
  async written(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing);
  }
}
