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

  constructor(private readonly store: Pick<Store, 'listLiveApiKeys' | 'keysVersion'>) {}

  /** The shop and kind a key belongs to, or null when unknown or expired. */
  lookup(key: string, now = Date.now()): KeyOwner | null {
    const owner = this.byHash.get(hashKey(key));
    if (!owner) return null;
    if (owner.expiresAt !== null && owner.expiresAt <= now) return null;
    return owner;
  }

  async load(): Promise<void> {
    const version = await this.store.keysVersion();
    const keys = await this.store.listLiveApiKeys(Date.now());
    this.byHash = new Map(keys.map((k) => [k.key_hash, { shopId: k.shop_id, kind: k.kind, expiresAt: k.expires_at }]));
    this.version = version;
  }

  /** Reloads when any node created or rotated keys since the last load. */
  async refreshIfStale(): Promise<boolean> {
    if ((await this.store.keysVersion()) === this.version) return false;
    await this.load();
    return true;
  }
}
