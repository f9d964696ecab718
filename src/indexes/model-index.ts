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

/**
 * Builds a shop's model off the request path (the worker thread), or says the data has not moved;
 * `withContent` false skips the content neighbours (built just ahead of a first model).
 */
export type ModelBuilder = (shopId: number, stamp: string | null, withContent: boolean) => Promise<BuildResult>;
/** Builds a shop's content neighbours alone (its products only: quick), before its first model. */
export type ContentBuilder = (shopId: number) => Promise<ContentModel | null>;

interface ShopState {
  current?: ShopModel;
  building?: Promise<void>;
  /** Before the first model: the content neighbours built ahead of it (similar_products waits on them). */
  content?: Promise<ContentModel | undefined>;
  /** Start of the last build (epoch ms): builds of a shop are at least `intervalMs` apart. */
  lastStart: number;
  /** A local write or a settings change since the last build started. */
  dirty: boolean;
  /** The debounced rebuild after a burst of writes, re-armed by each write. */
  debounce?: NodeJS.Timeout;
  /** The debounce fired while a build ran: build again when it ends. */
  owed?: boolean;
  /** Moved by `forget`: a build started before it read data since erased, and is not swapped in. */
  generation: number;
}

/**
 * Every shop's learned model, behind the model lists. A shop's model is built on its first
 * request and at start, and `debounceMs` after the last local write of a burst (an import), so
 * the lists are fresh seconds after it; other nodes' writes are picked up by the periodic pass,
 * at most once per interval. The previous model serves until the new one is swapped in. It
 * reports its bytes and can be evicted: the shop's next request rebuilds it.
 */
export class ModelIndex {
  private readonly shops = new Map<number, ShopState>();
  private closed = false;
  builds = 0;

  constructor(
    private readonly builder: ModelBuilder | null,
    private readonly options: {
      intervalMs: number;
      debounceMs?: number;
      content?: ContentBuilder;
      log?: Logger;
      now?: () => number;
    },
  ) {}

  /** Stops starting builds; the ones in flight end with the worker pool, quietly. */
  close(): void {
    this.closed = true;
    for (const state of this.shops.values()) clearTimeout(state.debounce);
  }

  /** The model serving a shop now, or undefined (then the lists fall back); a first read starts a build. */
  get(shopId: number): ShopModel | undefined {
    const state = this.state(shopId);
    if (!state.current && !state.building) this.start(shopId, state);
    return state.current;
  }

  /**
   * The shop's content neighbours (similar_products): the model's, or, before its first build is
   * in, those built ahead of it; undefined only when no model can be built here.
   */
  async content(shopId: number): Promise<ContentModel | undefined> {
    const state = this.state(shopId);
    if (!state.current && !state.building) this.start(shopId, state);
    return state.current?.content ?? (await state.content);
  }

  /** The stamp of the model serving a shop (part of cached answers' keys), without starting a build. */
  stamp(shopId: number): string | undefined {
    return this.shops.get(shopId)?.current?.stamp;
  }

  /**
   * The shop's data changed here (orders, settings, events): rebuild `debounceMs` after the last
   * of a burst of changes, whatever the interval. A shop never asked for is built on first use.
   */
  changed(shopId: number): void {
    const state = this.shops.get(shopId);
    if (!state || !this.builder || this.closed) return;
    state.dirty = true;
    clearTimeout(state.debounce);
    state.debounce = setTimeout(() => {
      state.debounce = undefined;
      if (this.closed) return;
      if (state.building) state.owed = true;
      else this.start(shopId, state);
    }, this.options.debounceMs ?? 0);
    state.debounce.unref();
  }

  /** Whether a write's rebuild of the shop is waiting on its debounce or running (scorers wait for false). */
  pending(shopId: number): boolean {
    const state = this.shops.get(shopId);
    return state !== undefined && (state.debounce !== undefined || state.owed === true || state.building !== undefined);
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

  /** Resolves once no build of the shop is running, waiting on its debounce or owed (tests wait on it). */
  async settled(shopId: number): Promise<void> {
    for (;;) {
      const state = this.shops.get(shopId);
      if (state?.building) await state.building;
      else if (state?.debounce || state?.owed) await new Promise((resolve) => setTimeout(resolve, 5));
      else return;
    }
  }

  /** Bytes held for the shop (for a memory budget). */
  bytes(shopId: number): number {
    return this.shops.get(shopId)?.current?.bytes ?? 0;
  }

  /** Drops the shop's model; its next request builds it again. */
  evict(shopId: number): void {
    const state = this.shops.get(shopId);
    clearTimeout(state?.debounce);
    if (state) state.debounce = undefined;
    if (state && !state.building) this.shops.delete(shopId);
    else if (state) state.current = undefined;
  }

  /**
   * An erasure: the shop's model, learned from data now gone, stops serving at once (the lists fall
   * back until the next build). A build in flight may have read that data: it is not swapped in, and
   * the shop is built again after it.
   */
  forget(shopId: number): void {
    const state = this.shops.get(shopId);
    if (!state) return;
    state.current = undefined;
    state.generation++;
    if (state.building) state.owed = true;
  }

  private state(shopId: number): ShopState {
    const state = getOrCreate(this.shops, shopId, () => ({ lastStart: 0, dirty: false, generation: 0 }));
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
    const builder = this.builder;
    if (!builder || this.closed) return;
    state.dirty = false;
    state.lastStart = this.now();
    const contentBuilder = this.options.content;
    if (!state.current && !state.content && contentBuilder) {
      // Queued ahead of the model on the same worker: a shop's first similar_products waits for these alone.
      state.content = contentBuilder(shopId).then(
        (content) => content ?? undefined,
        () => undefined,
      );
    }
    const stamp = state.current?.stamp ?? null;
    const generation = state.generation;
    const ahead = state.content;
    let aheadContent: ContentModel | undefined;
    const build = ahead
      ? ahead.then((content) => {
          aheadContent = content;
          return builder(shopId, stamp, content === undefined);
        })
      : builder(shopId, stamp, true);
    state.building = build
      .then((result) => {
        if ('missing' in result) {
          this.shops.delete(shopId);
          return;
        }
        if (result.unchanged || state.generation !== generation) return;
        this.builds++;
        // Swapped in whole: a request sees the old model or the new one, never a mix.
        state.content = undefined;
        const content = aheadContent ?? result.content;
        state.current = {
          model: result.model,
          content,
          stamp: result.stamp,
          builtAt: result.builtAt,
          buildMs: result.ms,
          bytes: modelBytes(result.model) + contentBytes(content),
        };
        this.options.log?.info(
          { shopId, ms: result.ms, bytes: state.current.bytes, stamp: result.stamp },
          'model built',
        );
      })
      .catch((error: unknown) => {
        // Shutting down ends builds in flight: that is no failure to report.
        if (!this.closed)
          this.options.log?.warn({ err: error, shopId }, 'model build failed; the previous model keeps serving');
      })
      .finally(() => {
        state.building = undefined;
        if (state.owed && !this.closed) {
          state.owed = false;
          this.start(shopId, state);
        } else if (state.dirty && this.options.intervalMs === 0) this.startIfDue(shopId, state);
      });
  }
}
