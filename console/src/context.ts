import { createContext, useContext } from 'react';
import type { Api } from './api';
import type { Collection, Product, Shop } from './types';

/** What every screen of a signed-in console needs: the API client and the shop being edited. */
export interface ConsoleContextValue {
  api: Api;
  shop: Shop;
  products: ProductCache;
  /** A page saved the shop (its settings): every page sees the stored shop from then on. */
  onShopChanged(shop: Shop): void;
  /** Signed in with the operator token, not a shop's private key: scopes and rate limits are theirs to change. */
  operator: boolean;
  /** The server can store access tokens: without REBOUND_SECRET_KEY, no store or billing API can be connected. */
  canStoreTokens: boolean;
  /** What this console signed in with: the Keys page tells a replaced private key by it. */
  bearer: string;
  /** The bearer this console signed in with was replaced (its private key rotated): sign in with the new one. */
  replaceToken(token: string): void;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside a signed-in console');
  return value;
}

/** Products fetched by id once per shop, shared by every picker and card of the console. */
export class ProductCache {
  private readonly byId = new Map<number, Product>();
  private readonly missing = new Set<number>();
  private collections: Promise<Collection[]> | null = null;

  constructor(
    private readonly api: Api,
    private readonly handle: string,
  ) {}

  get(id: number): Product | undefined {
    return this.byId.get(id);
  }

  known(): IterableIterator<Product> {
    return this.byId.values();
  }

  isMissing(id: number): boolean {
    return this.missing.has(id);
  }

  remember(products: readonly Product[]): void {
    for (const product of products) this.byId.set(product.id, product);
  }

  /** Loads the ids not known yet (250 at a time, the endpoint's limit). */
  async load(ids: readonly number[]): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.byId.has(id) && !this.missing.has(id));
    for (let i = 0; i < wanted.length; i += 250) {
      const chunk = wanted.slice(i, i + 250);
      const answer = await this.api.get<{ data: Product[] }>(
        `/shops/${encodeURIComponent(this.handle)}/products?ids=${chunk.join(',')}&limit=250`,
      );
      this.remember(answer.data);
      for (const id of chunk) if (!this.byId.has(id)) this.missing.add(id);
    }
  }

  /** Loads the products holding these variants, so variant chips can be named. */
  async loadVariants(variantIds: readonly number[]): Promise<void> {
    const known = new Set([...this.byId.values()].flatMap((p) => p.variants.map((v) => v.id)));
    const wanted = [...new Set(variantIds)].filter((id) => !known.has(id));
    for (let i = 0; i < wanted.length; i += 250) {
      const chunk = wanted.slice(i, i + 250);
      const answer = await this.api.get<{ data: Product[] }>(
        `/shops/${encodeURIComponent(this.handle)}/products?variant_ids=${chunk.join(',')}`,
      );
      this.remember(answer.data);
    }
  }

  async search(text: string, limit = 8): Promise<Product[]> {
    const answer = await this.api.get<{ data: Product[] }>(
      `/shops/${encodeURIComponent(this.handle)}/products?query=${encodeURIComponent(text)}&limit=${limit}`,
    );
    this.remember(answer.data);
    return answer.data;
  }

  /** Collections once per shop, every page; a failed request is not kept, so the next picker asks again. */
  listCollections(): Promise<Collection[]> {
    this.collections ??= this.allCollections().catch((error: unknown) => {
      this.collections = null;
      throw error;
    });
    return this.collections;
  }

  private async allCollections(): Promise<Collection[]> {
    const all: Collection[] = [];
    let after: number | null = 0;
    while (after !== null) {
      const page: { data: Collection[]; next: number | null } = await this.api.get(
        `/shops/${encodeURIComponent(this.handle)}/collections?limit=250&after=${after}`,
      );
      all.push(...page.data);
      after = page.next;
    }
    return all;
  }
}
