import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../domain/maps.js';
import { hashKey } from '../domain/keys.js';
import type { KeyKind } from '../domain/shop.js';
import type { ShopStore } from '../store/kysely/shops.js';

export interface KeyOwner {
  shopId: number;
  kind: KeyKind;
  expiresAt: number | null;
}

/** A key that authenticated: its owner and its hash (rate limits count by it). */
export interface FoundKey extends KeyOwner {
  hash: string;
}

/** Live API keys by hash, so authentication never queries the database per request. */
export class KeyIndex {
  private byHash = new Map<string, FoundKey>();
  private version = '';
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /**
   * Hashes of keys seen lately: a storefront sends the same key on every request, and a SHA-256
   * per request is most of what authentication costs. A hash never changes, so reloads keep these.
   */
  private readonly hashes = new LRUCache<string, string>(boundedEntries(10_000));

  constructor(private readonly store: ShopStore) {}

  /** The key's SHA-256, from the recent ones when it was seen lately. */
  hashOf(key: string): string {
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      hash = hashKey(key);
      if (key.length <= 256) this.hashes.set(key, hash);
    }
    return hash;
  }

  /** The shop and kind a key belongs to, or null when unknown or expired. */
  lookup(key: string, now = Date.now()): FoundKey | null {
    const hash = this.hashOf(key);
    const owner = this.byHash.get(hash);
    if (!owner) return null;
    if (owner.expiresAt !== null && owner.expiresAt <= now) return null;
    return owner;
  }

  /** Reloads every live key; concurrent calls share one load. */
  load(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const version = await this.store.keysVersion();
        const keys = await this.store.listLiveApiKeys(Date.now());
        this.byHash = new Map(
          keys.map((k) => [k.key_hash, { shopId: k.shop_id, kind: k.kind, expiresAt: k.expires_at, hash: k.key_hash }]),
        );
        this.version = version;
        this.loadedAt = Date.now();
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /**
   * Like lookup, but an unknown key first waits for a reload in flight, or triggers one when the
   * keys are more than a second old: a key another node just issued works on its first request,
   * while unknown keys cost at most one query a second.
   */
  async lookupFresh(key: string): Promise<FoundKey | null> {
    const owner = this.lookup(key);
    if (owner) return owner;
    if (this.loading) await this.loading.catch(() => undefined);
    else if (Date.now() - this.loadedAt > 1000) await this.load().catch(() => undefined);
    else return null;
    return this.lookup(key);
  }

  /** Reloads when any node created or rotated keys since the last load. */
  async refreshIfStale(): Promise<boolean> {
    if ((await this.store.keysVersion()) === this.version) return false;
    await this.load();
    return true;
  }
}
