import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CHANGE, type RelayedChange } from '../cluster/messages.js';
import type { ErasedCustomer } from '../store/kysely/privacy.js';

/**
 * What one node tells the others after a write it committed. `answers`: an erasure; drop the shop's
 * cached answers and what is held of the erased data (of `erased`, the customer and their sessions).
 */
export type ChangeMessage = ShopChanged | { type: 'keys' } | ErasureMessage;
type ErasureMessage = { type: 'answers'; shopId: number; erased?: ErasedCustomer };
type ShopChanged = { type: 'shop'; shopId: number; version: number };

/**
 * Carries "this changed" between API nodes over Redis pub/sub, so the others rebuild at once
 * instead of at their next poll. Without Redis, the workers of one node (REBOUND_WORKERS) still
 * tell each other through their primary: an erasure must reach the worker that holds the shop's
 * model at once, not at its next rebuild. A single process without Redis has no one to tell
 * (other nodes' writes are found by polling).
 */
export class ChangeBus {
  private readonly node = randomUUID();
  private subscriber: Redis | null = null;

  constructor(
    private readonly publisher: Redis | null,
    private readonly channel: string,
    private readonly warn: (error: unknown) => void,
  ) {}

  /** This process is one of its node's workers, and no Redis joins them: the primary relays. */
  private get throughPrimary(): boolean {
    return this.publisher === null && cluster.isWorker && typeof process.send === 'function';
  }

  publish(message: ChangeMessage): void {
    if (this.throughPrimary) {
      // A closed channel (the node stopping) is reported to the callback, not thrown.
      process.send!({ type: CHANGE, message } satisfies RelayedChange, undefined, undefined, () => undefined);
      return;
    }
    if (!this.publisher) return;
    this.publisher
      .publish(this.channel, JSON.stringify({ ...message, node: this.node }))
      .catch((error: unknown) => this.warn(error));
  }

  /** Listens on a second connection (a subscribed Redis connection can do nothing else). */
  async subscribe(handler: (message: ChangeMessage) => void): Promise<void> {
    if (this.throughPrimary) {
      process.on('message', (relayed: RelayedChange) => {
        if (relayed?.type === CHANGE) handler(relayed.message as ChangeMessage);
      });
      return;
    }
    if (!this.publisher) return;
    this.subscriber = this.publisher.duplicate({ enableOfflineQueue: true });
    this.subscriber.on('error', (error) => this.warn(error));
    this.subscriber.on('message', (_channel: string, text: string) => {
      try {
        const message = JSON.parse(text) as ChangeMessage & { node: string };
        if (message.node !== this.node) handler(message);
      } catch (error) {
        this.warn(error);
      }
    });
    await this.subscriber.subscribe(this.channel).catch((error: unknown) => this.warn(error));
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
