import type { Transaction } from 'kysely';
import { phoneDigits, phonesIn, samePhone } from '../../domain/phone.js';
import type { Database } from '../schema.js';

/**
 * Blanks the applied webhooks of a shop that name one of these phones however either was written:
 * `+44 20 7946 0958` in a redact request names an order body's `+442079460958`, which matching the
 * request's text alone left whole. Candidates are found by each phone's last four digits, then
 * compared by their `phone` fields' digits.
 */
export async function blankWebhooksWithPhones(
  trx: Transaction<Database>,
  shopId: number,
  phones: readonly string[],
): Promise<void> {
  for (const phone of phones) {
    const tail = phoneDigits(phone).slice(-4);
    if (tail.length < 4) continue;
    const candidates = await trx
      .selectFrom('shop_webhooks')
      .select(['webhook_id', 'payload'])
      .where('shop_id', '=', shopId)
      .where('applied_at', 'is not', null)
      .where('payload', 'like', `%${tail}%`)
      .execute();
    const naming = candidates.filter((row) => phonesIn(parsed(row.payload)).some((p) => samePhone(p, phone)));
    for (const row of naming)
      await trx
        .updateTable('shop_webhooks')
        .set({ payload: '{}' })
        .where('shop_id', '=', shopId)
        .where('webhook_id', '=', row.webhook_id)
        .execute();
  }
}

function parsed(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}
