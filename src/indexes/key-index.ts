import { hashKey } from '../domain/keys.js';
import type { KeyKind } from '../domain/shop.js';
import type { Store } from '../store/store.js';

export interface KeyOwner {
  shopId: number;
  kind: KeyKind;
  expiresAt: number | null;
}

/** Live API keys by hash, so authentication never queries the database per request. */
export class KeyIndex {
  private byHash = new Map<string, KeyOwner>();
  private version = '';
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly store: Pick<Store, 'listLiveApiKeys' | 'keysVersion'>) {}

  /** The shop and kind a key belongs to, or null when unknown or expired. */
  lookup(key: string, now = Date.now()): KeyOwner | null {
    const owner = this.byHash.get(hashKey(key));
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
        this.byHash = new Map(keys.map((k) => [k.key_hash, { shopId: k.shop_id, kind: k.kind, expiresAt: k.expires_at }]));
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
  async lookupFresh(key: string): Promise<KeyOwner | null> {
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
