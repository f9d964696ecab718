import type { BlankedBody } from './erasure-reach.js';
import type { Transaction } from 'kysely';
import { phoneDigits, phonesIn, samePhone } from '../../domain/phone.js';
import type { Database } from '../schema.js';
import { parsedBody } from '../../domain/erased-bodies.js';
import { blank } from './erasure-reach.js';

/**
 * Blanks the applied webhooks of a shop that name one of these phones however either was written:
 * `+44 20 7946 0958` in a redact request names an order body's `+442079460958`, and `+33612345678` a
 * body's `+33 6 12 34 56 78`. Candidates are found by each phone's last four digits, a separator or
 * none between each two, then compared by their `phone` fields' digits. Returns when each blanked body
 * was received.
 */
export async function blankWebhooksWithPhones(
  trx: Transaction<Database>,
  shopId: number,
  phones: readonly string[],
): Promise<BlankedBody[]> {
  const blanked: BlankedBody[] = [];
  for (const phone of phones) {
    const tail = phoneDigits(phone).slice(-4);
    if (tail.length < 4) continue;
    const candidates = await trx
      .selectFrom('shop_webhooks')
      .select(['webhook_id', 'payload', 'received_at'])
      .where('shop_id', '=', shopId)
      .where('applied_at', 'is not', null)
      .where('payload', '!=', '{}')
      .where((eb) => eb.or(tailPatterns(tail).map((pattern) => eb('payload', 'like', pattern))))
      .execute();
    const naming = candidates.filter((row) =>
      phonesIn(parsedBody(row.payload) ?? null).some((p) => samePhone(p, phone)),
    );
    await blank(trx, shopId, naming);
    for (const row of naming) blanked.push({ received_at: Number(row.received_at), payload: row.payload });
  }
  return blanked;
}

/** `5678` as `5678`, `56 78`, `5-6-7-8` …: a single character or none between each two digits. */
export function tailPatterns(tail: string): string[] {
  const patterns = [''];
  for (const [i, digit] of [...tail].entries())
    patterns.splice(
      0,
      patterns.length,
      ...patterns.flatMap((p) => (i === 0 ? [p + digit] : [p + digit, `${p}_${digit}`])),
    );
  return patterns.map((p) => `%${p}%`);
}
