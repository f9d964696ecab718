import type { Transaction } from 'kysely';
import type { Database } from '../schema.js';

/** Patterns matched per statement. */
const STAGED_SLICE = 200;

/**
 * A sync's staged export lines (platform_staging: the platform's raw JSON, personal data included)
 * that name an erased customer: their own line and its children, their orders' that a redaction
 * lists, and any line naming their id or an e-mail of theirs. Staging lasts while a sync imports,
 * and until the shop's next sync when a process stopped in between. Matched on lower-cased text, as
 * export records are: what matches more (a `_` in an e-mail) is only imported by the next sync instead.
 */
export async function forgetStaged(
  trx: Transaction<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
  orderIds: readonly number[],
): Promise<void> {
  const gids = [`gid://shopify/Customer/${customerId}`, ...orderIds.map((id) => `gid://shopify/Order/${id}`)];
  // Quoted: the id 12 must not match the line of customer 123.
  const named = [...gids, ...emails].map((text) => `%"${text.toLowerCase()}"%`);
  // In slices: SQLite refuses an expression of a thousand terms (a redact listing a thousand orders).
  for (let at = 0; at < named.length; at += STAGED_SLICE) {
    const ids = gids.slice(at, at + STAGED_SLICE);
    const patterns = named.slice(at, at + STAGED_SLICE);
    await trx
      .deleteFrom('platform_staging')
      .where('shop_id', '=', shopId)
      .where((eb) =>
        eb.or([
          ...(ids.length > 0 ? [eb('gid', 'in', ids), eb('parent', 'in', ids)] : []),
          ...patterns.map((pattern) => eb(eb.fn<string>('lower', ['line']), 'like', pattern)),
        ]),
      )
      .execute();
  }
}
