import type { Logger } from 'pino';
import type { BuiltModel } from '../domain/models/build.js';
import { contentBytes, type ContentModel } from '../domain/models/content.js';
import { modelBytes } from '../domain/models/rank.js';
import type { BuildResult } from '../jobs/model-worker.js';
import { getOrCreate } from '../domain/maps.js';

/** A shop's model as served: built from data with `stamp`, swapped in whole. */
export interface ShopModel {
  readonly model: BuiltModel;
  /** Every product's content neighbours (similar_products), built with the model. */
  readonly content: ContentModel;
  /** The data it was built from (data version and event count): equal stamps, equal models, on every node. */
  readonly stamp: string;
  readonly builtAt: string;
  readonly buildMs: number;
  readonly bytes: number;
}

/** Builds a shop's model off the request path (the worker thread), or says the data has not moved. */
export type ModelBuilder = (shopId: number, stamp: string | null) => Promise<BuildResult>;

interface ShopState {
  current?: ShopModel;
  building?: Promise<void>;
  /** Start of the last build (epoch ms): builds of a shop are at least `intervalMs` apart. */
  lastStart: number;
  /** A local write or a settings change since the last build started. */
  dirty: boolean;
}

/**
 * Every shop's learned model, behind the model lists. A shop's model is built on its first
 * request and at start, then rebuilt when its orders, events or settings changed, at most once
 * per interval; the previous model serves until the new one is swapped in. It reports its bytes
 * and can be evicted: the shop's next request rebuilds it.
 */
export class ModelIndex {
  private readonly shops = new Map<number, ShopState>();
  private closed = false;
  builds = 0;

  constructor(
    private readonly builder: ModelBuilder | null,
    private readonly options: { intervalMs: number; log?: Logger; now?: () => number },
  ) {}

  /** Stops starting builds; the ones in flight end with the worker pool, quietly. */
  close(): void {
    this.closed = true;
  }

  /** The model serving a shop now, or undefined (then the lists fall back); a first read starts a build. */
  get(shopId: number): ShopModel | undefined {
    const state = this.state(shopId);
    if (!state.current && !state.building) this.start(shopId, state);
    return state.current;
  }

  /** The stamp of the model serving a shop (part of cached answers' keys), without starting a build. */
  stamp(shopId: number): string | undefined {
    return this.shops.get(shopId)?.current?.stamp;
  }

  /** The shop's data changed here (orders, settings, events): rebuild now, or once the interval has passed. */
  changed(shopId: number): void {
    const state = this.shops.get(shopId);
    if (!state) return; // never asked for: built on first use
    state.dirty = true;
    this.startIfDue(shopId, state);
  }

  /** The periodic pass: every known shop is checked (other nodes' writes move the stamp too) and rebuilt when due. */
  refresh(): void {
    for (const [shopId, state] of this.shops) {
      state.dirty = true;
      this.startIfDue(shopId, state);
    }
  }

  /** Starts every listed shop's first build (at start-up). */
  warm(shopIds: Iterable<number>): void {
    for (const shopId of shopIds) this.get(shopId);
  }

  /** Resolves once no build of the shop is running and none is owed (tests wait on it). */
  async settled(shopId: number): Promise<void> {
    for (;;) {
      const state = this.shops.get(shopId);
      if (!state?.building) return;
      await state.building;
    }
  }

  /** Bytes held for the shop (for a memory budget). */
  bytes(shopId: number): number {
    return this.shops.get(shopId)?.current?.bytes ?? 0;
  }

  /** Drops the shop's model; its next request builds it again. */
  evict(shopId: number): void {
    const state = this.shops.get(shopId);
    if (state && !state.building) this.shops.delete(shopId);
    else if (state) state.current = undefined;
  }

  private state(shopId: number): ShopState {
    const state = getOrCreate(this.shops, shopId, () => ({ lastStart: 0, dirty: false }));
    return state;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private startIfDue(shopId: number, state: ShopState): void {
    if (state.building || !state.dirty) return;
    if (this.now() - state.lastStart < this.options.intervalMs) return; // the next periodic pass picks it up
    this.start(shopId, state);
  }

  private start(shopId: number, state: ShopState): void {
    if (!this.builder || this.closed) return;
    state.dirty = false;
    state.lastStart = this.now();
    state.building = this.builder(shopId, state.current?.stamp ?? null)
      .then((result) => {
        if ('missing' in result) {
          this.shops.delete(shopId);
          return;
        }
        if (result.unchanged) return;
        this.builds++;
        // Swapped in whole: a request sees the old model or the new one, never a mix.
        state.current = {
          model: result.model,
          content: result.content,
          stamp: result.stamp,
          builtAt: result.builtAt,
          buildMs: result.ms,
          bytes: modelBytes(result.model) + contentBytes(result.content),
        };
        this.options.log?.info({ shopId, ms: result.ms, bytes: state.current.bytes, stamp: result.stamp }, 'model built');
      })
      .catch((error: unknown) => {
        // Shutting down ends builds in flight: that is no failure to report.
        if (!this.closed) this.options.log?.warn({ err: error, shopId }, 'model build failed; the previous model keeps serving');
      })
      .finally(() => {
        state.building = undefined;
        if (state.dirty && this.options.intervalMs === 0) this.startIfDue(shopId, state);
      });
  }
}
