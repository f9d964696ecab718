import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { TooManyRequestsError } from '../../domain/errors.js';

/** Bulk bodies one caller (a shop's private key, or the operator for one shop) may send at once. */
export const BULK_PER_CALLER = 2;

/** Seconds a caller refused for want of a slot is asked to wait: an import takes about that long. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Bulk bodies the process reads at once. A JSON body takes about three and a half times its bytes
 * once parsed (an 18.6 MB array of orders: 65 MB), so a slot is counted as four of the largest body
 * allowed against the memory budget; two at least, so one large import does not hold every shop's.
 */
export function bulkSlotsFor(memoryBudgetMb: number, maxBodyMb: number): number {
  return Math.max(2, Math.floor(memoryBudgetMb / (4 * maxBodyMb)));
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Gives back the bulk slot this request holds (once). */
    releaseBulkSlot?: () => void;
  }
}

/**
 * Bounds the bulk imports read at once, per caller and per process, before their bodies are read:
 * twenty-five 18 MB imports sent together took a process with a 512 MB budget past 2 GB, and every
 * shop's requests waited seconds behind them. A request over a bound is a 429 with Retry-After.
 */
export class BulkSlots {
  private running = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    private readonly processSlots: number,
    private readonly perCaller = BULK_PER_CALLER,
  ) {}

  /** Adds the slot's hook to a bulk route (after the instance's own: the caller is authenticated first). */
  guard(route: RouteOptions): void {
    route.onRequest = [...hooksOf(route.onRequest), this.acquire];
  }

  private readonly acquire: Hook = async (request, reply) => {
    const caller = callerOf(request);
    const mine = this.byCaller.get(caller) ?? 0;
    if (mine >= this.perCaller) throw busy(`${this.perCaller} bulk imports of this shop are being read already`);
    if (this.running >= this.processSlots) throw busy('the node is reading as many bulk imports as it can hold');
    this.running++;
    this.byCaller.set(caller, mine + 1);
    let held = true;
    request.releaseBulkSlot = () => {
      if (!held) return;
      held = false;
      this.running--;
      const left = (this.byCaller.get(caller) ?? 1) - 1;
      if (left === 0) this.byCaller.delete(caller);
      else this.byCaller.set(caller, left);
    };
    // The response's close comes once whatever ends the request: an answer, an error, the sender gone, a timeout.
    reply.raw.once('close', request.releaseBulkSlot);
  };
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** A shop's private key counts for its shop; the operator token for the shop the path names. */
function callerOf(request: FastifyRequest): string {
  const admin = request.admin;
  if (admin && !admin.operator) return `shop:${admin.shopId}`;
  return `handle:${(request.params as { handle?: string } | undefined)?.handle?.toLowerCase() ?? ''}`;
}

function busy(why: string): TooManyRequestsError {
  return new TooManyRequestsError(
    `Too many bulk imports at once: ${why}. Retry after ${RETRY_AFTER_SECONDS} seconds.`,
    RETRY_AFTER_SECONDS,
  );
}
