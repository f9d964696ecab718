import type { ExpressionBuilder, Kysely } from 'kysely';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';
import { selectedInSlices } from './in-slices.js';

/*
 * Which events, clicks, sessions and carts are a customer's, for a data request's export and an
 * erasure alike (docs/operations.md, "Privacy").
 */

/**
 * The events naming the customer: by their id, or by one of their emails when naming no other
 * customer (an event sent before they signed in). An e-mail they gave up may be another customer's
 * now: that customer's signed-in events are theirs.
 */
export const namingCustomer =
  (customerId: number, emails: readonly string[]) => (eb: ExpressionBuilder<Database, 'events'>) =>
    emails.length > 0
      ? eb.or([
          eb('customer_id', '=', customerId),
          eb.and([eb(eb.fn<string>('lower', ['subject_email']), 'in', emails), eb('customer_id', 'is', null)]),
        ])
      : eb('customer_id', '=', customerId);

/**
 * Every event of the customer: naming them (by id or email), or in one of their sessions without
 * naming anyone else. A session shared with another customer (one device, two accounts) brings
 * only its anonymous events: the other customer's own are theirs, not to erase nor to export.
 */
export const eventsOf =
  (customerId: number, emails: readonly string[], sessions: readonly string[]) =>
  (eb: ExpressionBuilder<Database, 'events'>) =>
    eb.or([
      namingCustomer(customerId, emails)(eb),
      ...(sessions.length > 0
        ? [
            eb.and([
              eb('uuid', 'in', sessions),
              eb('customer_id', 'is', null),
              eb.or([eb('subject_email', 'is', null), eb('subject_email', '=', '')]),
            ]),
          ]
        : []),
    ]);

/**
 * Tracking of the customer: by their id, or anonymous in one of their sessions or carts (a click
 * from another device into the cart they went on to order from).
 */
export const trackedOf =
  (customerId: number, sessions: readonly string[], carts: readonly string[] = []) =>
  (eb: ExpressionBuilder<Database, 'track_events'>) => {
    const anonymous = [
      ...(sessions.length > 0 ? [eb('uuid', 'in', sessions)] : []),
      ...(carts.length > 0 ? [eb('cart_token', 'in', carts)] : []),
    ];
    return anonymous.length > 0
      ? eb.or([eb('customer_id', '=', customerId), eb.and([eb.or(anonymous), eb('customer_id', 'is', null)])])
      : eb('customer_id', '=', customerId);
  };

/** The carts the customer's own tracking names (each a storefront cart token). */
export async function cartsOf(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  sessions: readonly string[],
): Promise<string[]> {
  const rows = await selectedInSlices(
    sessions,
    (slice) =>
      db
        .selectFrom('track_events')
        .select('cart_token')
        .distinct()
        .where('shop_id', '=', shopId)
        .where(trackedOf(customerId, slice))
        .where('cart_token', 'is not', null)
        .execute(),
    (row) => row.cart_token,
  );
  return rows.map((r) => r.cart_token!);
}

/** The customer's events in id order: naming them, or anonymous in their sessions. */
export async function eventRowsOf(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
  sessions: readonly string[],
) {
  const rows = await selectedInSlices(
    sessions,
    (slice) =>
      db
        .selectFrom('events')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where(eventsOf(customerId, emails, slice))
        .execute(),
    (row) => row.id,
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** The customer's tracking rows in id order: by their id, or anonymous in their sessions or carts. */
export async function trackingOf(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  sessions: readonly string[],
  carts: readonly string[],
) {
  const read = (slices: { sessions?: readonly string[]; carts?: readonly string[] }) =>
    db
      .selectFrom('track_events')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where(trackedOf(customerId, slices.sessions ?? [], slices.carts ?? []))
      .execute();
  const bySession = await selectedInSlices(
    sessions,
    (slice) => read({ sessions: slice }),
    (row) => row.id,
  );
  const byCart = await selectedInSlices(
    carts,
    (slice) => read({ carts: slice }),
    (row) => row.id,
  );
  const rows = [...new Map([...bySession, ...byCart].map((row) => [row.id, row])).values()];
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * The sessions a customer browsed in: their events and tracking name both the customer (or their
 * email) and the session.
 */
export async function sessionsOf(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
): Promise<string[]> {
  const events = await db
    .selectFrom('events')
    .select('uuid')
    .distinct()
    .where('shop_id', '=', shopId)
    .where(namingCustomer(customerId, emails))
    .where('uuid', 'is not', null)
    .execute();
  const tracked = await db
    .selectFrom('track_events')
    .select('uuid')
    .distinct()
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('uuid', 'is not', null)
    .execute();
  return [...new Set([...events, ...tracked].map((r) => r.uuid!))];
}

/**
 * The customer's sessions and carts: the sessions their events and tracking name, the carts those
 * name, and the devices that clicked anonymously into one of those carts (a cart token lives in one
 * browser: another session of theirs, whose history is theirs too) unless another customer signed
 * in on that device, or gave another e-mail there, or it clicked into another cart.
 */
export async function sessionsAndCartsOf(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
): Promise<{ sessions: string[]; carts: string[] }> {
  const own = await sessionsOf(db, shopId, customerId, emails);
  const carts = await cartsOf(db, shopId, customerId, own);
  if (carts.length === 0) return { sessions: own, carts };
  const devices = await selectedInSlices(
    carts,
    (slice) =>
      db
        .selectFrom('track_events')
        .select('uuid')
        .distinct()
        .where('shop_id', '=', shopId)
        .where('cart_token', 'in', slice)
        .where('customer_id', 'is', null)
        .where('uuid', 'is not', null)
        .execute(),
    (row) => row.uuid,
  );
  const candidates = devices.map((d) => d.uuid!).filter((uuid) => !own.includes(uuid));
  const others = new Set<string>();
  for (const part of chunks(candidates, 1, 500))
    for (const uuid of await someoneElses(db, shopId, { customerId, emails, carts }, part)) others.add(uuid);
  return { sessions: [...own, ...candidates.filter((uuid) => !others.has(uuid))], carts };
}

/**
 * Of these devices, those that may be someone else's (a shared cart, a family's laptop): another
 * customer signed in on it, someone gave another e-mail there, or it clicked into another cart. Only
 * their clicks into this customer's carts go with the customer.
 */
async function someoneElses(
  db: Kysely<Database>,
  shopId: number,
  customer: { customerId: number; emails: readonly string[]; carts: readonly string[] },
  devices: readonly string[],
): Promise<string[]> {
  const { customerId, emails, carts } = customer;
  const signedIn = (table: 'events' | 'track_events') =>
    db
      .selectFrom(table)
      .select('uuid')
      .distinct()
      .where('shop_id', '=', shopId)
      .where('uuid', 'in', devices)
      .where('customer_id', 'is not', null)
      .where('customer_id', '!=', customerId)
      .execute();
  const named = () =>
    db
      .selectFrom('events')
      .select('uuid')
      .distinct()
      .where('shop_id', '=', shopId)
      .where('uuid', 'in', devices)
      .where('subject_email', 'is not', null)
      .where('subject_email', '!=', '')
      .where((eb) =>
        emails.length > 0 ? eb(eb.fn<string>('lower', ['subject_email']), 'not in', [...emails]) : eb.lit(true),
      )
      .execute();
  // The customer's carts may be more than a statement binds: compared here.
  const theirs = new Set(carts);
  const elsewhere = async () =>
    (
      await db
        .selectFrom('track_events')
        .select(['uuid', 'cart_token'])
        .distinct()
        .where('shop_id', '=', shopId)
        .where('uuid', 'in', devices)
        .where('cart_token', 'is not', null)
        .execute()
    ).filter((row) => !theirs.has(row.cart_token!));
  const rows = [
    ...(await signedIn('events')),
    ...(await signedIn('track_events')),
    ...(await named()),
    ...(await elsewhere()),
  ];
  return rows.map((row) => row.uuid!);
}
