import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type {
  ErasedCustomer,
  ErasureCounts,
  NamedElsewhere,
  PrivacyRequestRecord,
  PrivacyStore,
} from '../../store/kysely/privacy.js';
import type { ShopWebhookStore } from '../../store/kysely/shop-webhooks.js';
import type { ShopStore } from '../../store/kysely/shops.js';
import { upstreamId } from '../../domain/inputs/whole-numbers.js';
import { isNode } from '../../domain/platform/map.js';
import { InvalidInputError, UnavailableError } from '../../domain/errors.js';

const DAY_MS = 86_400_000;
/** How long a data request's export is kept for the merchant to hand over. */
export const EXPORT_DAYS = 30;
/** Reads of an export before it gives up, when erasures of the shop keep coming between a read and its keeping. */
const EXPORT_TRIES = 3;
export const DEFAULT_EVENT_RETENTION_DAYS = 400;
/**
 * Days an applied storefront webhook's id, topic and outcome are kept (its body went when it was
 * applied): a delivery of it again is known as a repeat. The platform retries for 48 hours, and a
 * delivery triggered more than a day before is not applied anyway.
 */
export const APPLIED_WEBHOOK_DAYS = 7;

export interface PrivacyRequestView {
  id: string;
  kind: string;
  customer_id: number | null;
  received_at: string;
  export: Record<string, unknown> | null;
}

const customerIdOf = (payload: Record<string, unknown>): number | null =>
  isNode(payload.customer) ? upstreamId(payload.customer.id) : null;

/** The customer's email as a privacy request names them (events may know them only by it). */
const emailsOfRequest = (payload: Record<string, unknown>): string[] => {
  const email = isNode(payload.customer) ? payload.customer.email : undefined;
  return typeof email === 'string' ? [email] : [];
};

/** The orders a privacy request names (a guest order names its buyer in no column of ours). */
const namedElsewhere = (payload: Record<string, unknown>): NamedElsewhere => {
  // A redact lists `orders_to_redact`, a data request `orders_requested`.
  const listed = payload.orders_to_redact ?? payload.orders_requested;
  const orders = Array.isArray(listed) ? listed : [];
  return {
    orderIds: orders.map((id) => upstreamId(id)).filter((id): id is number => id !== null),
  };
};

/** Writes a shop's deletion may race, such as visits buffered for a second, are done well within this. */
export const LATE_WRITES_MS = 60_000;

/**
 * The platform's privacy requests and Rebound's own erasure (docs/operations.md, "Privacy"): a
 * data request keeps an export of everything stored about the customer for 30 days; an erasure
 * removes the customer's row, events and tracking (also of the sessions linked to them), blanks
 * their billing customer's personal fields and unlinks their orders, whose lines stay anonymous.
 */
export function createPrivacyService(deps: {
  store: PrivacyStore & ShopStore & Pick<ShopWebhookStore, 'deleteAppliedShopWebhooks'>;
  catalog: CatalogIndex;
  /**
   * Drops what this node holds in memory of the shop's erased data: the model learned from it, the
   * provider's objects read for it and, given a customer, what is kept of them and their sessions.
   */
  forgetHeld?: (shopId: number, erased?: ErasedCustomer) => Promise<void>;
  /** Drops the shop's cached answers here and tells every other node to drop them and forget the same. */
  forgetAnswers?: (shopId: number, erased?: ErasedCustomer) => Promise<void>;
  /** Called after a shop is deleted (its keys must stop working on every node). */
  shopDeleted?: (shopId: number) => Promise<void>;
  /** How long after a shop's deletion its rows are deleted again (`LATE_WRITES_MS`). */
  lateWritesMs?: number;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { store } = deps;

  /** Erases the customer; `emails`: theirs as the request names them, for events that know them only so. */
  async function erase(
    shopId: number,
    customerId: number,
    emails: readonly string[] = [],
    named: NamedElsewhere = {},
  ): Promise<ErasureCounts> {
    const { counts, sessions } = await store.eraseCustomer(shopId, customerId, emails, named);
    const erased = { customerId, sessions };
    // The model goes before the read model is rebuilt, so no answer of the new version is made from it.
    await deps.forgetHeld?.(shopId, erased);
    // The write moved the shop's version, so no cached answer is served again; they are also dropped,
    // not left stored until they expire.
    await deps.catalog.apply(shopId, { orders: true, customers: true });
    await deps.forgetAnswers?.(shopId, erased);
    return counts;
  }

  /**
   * An e-mail the merchant types must not be another customer's on file: a typo, or an address copied
   * from the wrong row, would export that customer's anonymous events with this one, or erase them.
   */
  async function requireOwnEmails(shopId: number, customerId: number, emails: readonly string[]): Promise<void> {
    for (const email of emails) {
      const others = (await store.customersWithEmail(shopId, email)).filter((id) => id !== customerId);
      if (others.length > 0)
        throw new InvalidInputError(
          'email',
          `The e-mail ${email} is customer ${others[0]}'s, not customer ${customerId}'s: check it, or leave it out.`,
        );
    }
  }

  /** A request recorded for the listing, kept 30 days: with its export, or none (an erasure keeps no data). */
  const recordOf = (
    shopId: number,
    id: string,
    kind: PrivacyRequestRecord['kind'],
    customerId: number,
    records: Record<string, unknown> | null,
    now: number,
  ): PrivacyRequestRecord => ({
    shop_id: shopId,
    id,
    kind,
    customer_id: customerId,
    received_at: now,
    export: records === null ? null : JSON.stringify(records),
    expires_at: now + EXPORT_DAYS * DAY_MS,
  });

  /**
   * An export read and kept with no erasure of the shop between the two: one that came meanwhile may
   * have taken records it holds (the customer's own, or a device they shared with this one), and it
   * pruned the exports kept before it, not this one. Read again then, EXPORT_TRIES times at most.
   */
  async function keepExport(
    shopId: number,
    id: string,
    customerId: number,
    read: () => Promise<Record<string, unknown>>,
    now: number,
  ): Promise<Record<string, unknown>> {
    for (let tries = 0; tries < EXPORT_TRIES; tries++) {
      const mark = await store.erasureMark(shopId);
      const records = await read();
      if (await store.putPrivacyRequest(recordOf(shopId, id, 'data_request', customerId, records, now), mark))
        return records;
    }
    throw new UnavailableError('Erasures in this shop kept coming while the export was read: try it again.');
  }

  return {
    erase,

    /** The merchant's own erasure (the admin API), listed with the platform's requests. */
    async eraseOnRequest(shopId: number, customerId: number, emails: readonly string[], now = Date.now()) {
      await requireOwnEmails(shopId, customerId, emails);
      const counts = await erase(shopId, customerId, emails);
      await store.putPrivacyRequest(recordOf(shopId, `erasure-${customerId}-${now}`, 'erasure', customerId, null, now));
      return counts;
    },

    /**
     * The merchant's own data request (the admin API, for a customer who asked the shop directly):
     * the export, kept 30 days and listed as the platform's are, and gone with the customer's erasure.
     */
    async exportOnRequest(
      shopId: number,
      customerId: number,
      emails: readonly string[],
      now = Date.now(),
    ): Promise<PrivacyRequestView> {
      await requireOwnEmails(shopId, customerId, emails);
      const id = `export-${customerId}-${now}`;
      const records = await keepExport(
        shopId,
        id,
        customerId,
        () => store.customerRecords(shopId, customerId, emails),
        now,
      );
      const received_at = new Date(now).toISOString();
      return { id, kind: 'data_request', customer_id: customerId, received_at, export: records };
    },

    /**
     * The requests not expired, newest first, as the JSON text of `{"data": [PrivacyRequestView…]}`: each
     * export spliced in as stored (JSON the export wrote), not parsed and written again. Five exports of
     * 20,000 events each were 23.7 MB parsed and serialized in one stretch of 441 ms of every shop's thread.
     */
    async listJson(shopId: number, now = Date.now()): Promise<string> {
      const items = (await store.listPrivacyRequests(shopId, now)).map(
        (r) =>
          `{"id":${JSON.stringify(r.id)},"kind":${JSON.stringify(r.kind)},"customer_id":${r.customer_id ?? 'null'},` +
          `"received_at":"${new Date(r.received_at).toISOString()}","export":${r.export ?? 'null'}}`,
      );
      return `{"data":[${items.join(',')}]}`;
    },

    /** `customers/data_request`: the export, kept 30 days. */
    async dataRequest(
      shopId: number,
      payload: Record<string, unknown>,
      fallbackId: string,
      now = Date.now(),
    ): Promise<string> {
      const customerId = customerIdOf(payload);
      if (customerId === null) return 'error: needs customer.id';
      // The platform's id of the request when it is one (a number, or a short string), else the webhook's.
      const requestId = isNode(payload.data_request) ? payload.data_request.id : undefined;
      const given =
        typeof requestId === 'number' || (typeof requestId === 'string' && requestId.length <= 200) ? requestId : null;
      const id = given === null || given === '' ? fallbackId : String(given);
      const read = () => store.customerRecords(shopId, customerId, emailsOfRequest(payload), namedElsewhere(payload));
      await keepExport(shopId, id, customerId, read, now);
      return 'applied';
    },

    /** `customers/redact`: the erasure, recorded (without any personal data) for the listing. */
    async redact(
      shopId: number,
      payload: Record<string, unknown>,
      fallbackId: string,
      now = Date.now(),
    ): Promise<string> {
      const customerId = customerIdOf(payload);
      if (customerId === null) return 'error: needs customer.id';
      await erase(shopId, customerId, emailsOfRequest(payload), namedElsewhere(payload));
      await store.putPrivacyRequest(recordOf(shopId, fallbackId, 'redact', customerId, null, now));
      return 'applied';
    },

    /** `shop/redact`: the shop and everything stored for it. */
    async shopRedact(shopId: number): Promise<string> {
      await store.deleteShopData(shopId);
      // A write checked against the shop before its deletion may commit after it (an event in a group
      // commit, visits buffered for a second, another node's batch): what came late goes too.
      setTimeout(() => {
        store
          .deleteShopData(shopId)
          .catch((error: unknown) => deps.log?.warn({ err: error, shopId }, "a deleted shop's late writes stay"));
      }, deps.lateWritesMs ?? LATE_WRITES_MS).unref();
      await deps.catalog.apply(shopId, { shop: true });
      await deps.shopDeleted?.(shopId);
      await deps.forgetHeld?.(shopId);
      await deps.forgetAnswers?.(shopId);
      return 'applied';
    },

    /**
     * The daily retention: events past each shop's `event_retention_days`, expired exports, and applied
     * webhooks past APPLIED_WEBHOOK_DAYS.
     */
    async retention(now = Date.now()): Promise<number> {
      let deleted = 0;
      for (const shop of await store.listShops()) {
        const days = shop.settings.event_retention_days ?? DEFAULT_EVENT_RETENTION_DAYS;
        deleted += await store.deleteEventsBefore(shop.id, now - days * DAY_MS);
      }
      await store.deleteExpiredPrivacyRequests(now);
      await store.deleteAppliedShopWebhooks(now - APPLIED_WEBHOOK_DAYS * DAY_MS);
      return deleted;
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
