/**
 * What an erasure blanks in the billing ledger (docs/operations.md, "Privacy"): a billing
 * customer's personal fields (the link to the shop's customer too), its addresses', and what the
 * customer wrote into their subscriptions and one-time purchases (why they cancelled, the line
 * properties: a gift note, an engraving). Ids, amounts and dates stay.
 */
const CUSTOMER_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'billing_address1',
  'billing_address2',
  'billing_zip',
  'billing_city',
  'billing_company',
  'billing_province',
  'billing_country',
  'billing_phone',
  'shop_customer_id',
  'hash',
];
const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'address1',
  'address2',
  'city',
  'zip',
  'phone',
  'company',
  'province',
];

export type ErasedKind = 'customers' | 'addresses' | 'subscriptions' | 'onetimes' | 'charges';

const blankFields = (doc: Record<string, unknown>, fields: readonly string[]) => {
  for (const field of fields) if (typeof doc[field] === 'string') doc[field] = '';
};

/**
 * Blanks a ledger document of an erased billing customer in place. Rebound's own line properties
 * (`_rebound_source`) name a widget, not a person, and stay; a charge holds nothing blanked.
 */
export function blankErased(kind: ErasedKind, doc: Record<string, unknown>): void {
  if (kind === 'customers') blankFields(doc, CUSTOMER_FIELDS);
  else if (kind === 'addresses') blankFields(doc, ADDRESS_FIELDS);
  else if (kind !== 'charges') blankFreeText(doc);
}

function blankFreeText(doc: Record<string, unknown>): void {
  if (typeof doc.cancellation_reason_comments === 'string') doc.cancellation_reason_comments = null;
  if (Array.isArray(doc.properties))
    doc.properties = doc.properties.map((p: { name?: unknown; value?: unknown }) =>
      typeof p?.name === 'string' && p.name.startsWith('_rebound') ? p : { ...p, value: '' },
    );
}

/**
 * Blanks, in place, the documents of billing customers erased after the change each describes
 * (its `updated_at` at or before the erasure): a provider's webhook retried, or an old export
 * imported again, must not bring back what was blanked. Returns how many were blanked.
 */
export function blankErasedBefore(
  kind: ErasedKind,
  docs: readonly { id: number; customer_id?: number; updated_at: string }[],
  erased: ReadonlyMap<number, number>,
): number {
  if (erased.size === 0) return 0;
  let blanked = 0;
  for (const doc of docs) {
    const owner = kind === 'customers' ? doc.id : doc.customer_id;
    const erasedAt = owner === undefined ? undefined : erased.get(owner);
    if (erasedAt === undefined || timeOf(doc.updated_at) > erasedAt) continue;
    // The ledger's documents are the provider's objects: these fields beside all the others.
    blankErased(kind, doc as unknown as Record<string, unknown>);
    blanked++;
  }
  return blanked;
}

/** A ledger time: with no zone, the provider's UTC (as the store reads it); none readable, the oldest. */
const timeOf = (text: string) => Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`) || 0;

/**
 * Whose a billing customer is, as the store indexes it: `c:<id>` when linked to a shop customer (by
 * id as the provider writes it: a number, or the platform's `gid://…/Customer/<id>`), else `e:<e-mail>`
 * (composed, NFC, and lower-cased as e-mails given are: `zoë` typed on another keyboard is `zoe` and a
 * combining mark), else null.
 */
export function billingOwnerOf(doc: Record<string, unknown>): string | null {
  const link = linkOf(doc);
  if (link !== '') return `c:${link}`;
  const email = typeof doc.email === 'string' ? doc.email.trim().normalize('NFC').toLowerCase() : '';
  return email === '' ? null : `e:${email}`;
}

/** The `billingOwnerOf` keys of a shop customer's billing customers: by id, or unlinked, by an e-mail of theirs. */
export const billingOwnerKeys = (customerId: number, emails: readonly string[]): string[] => [
  `c:${customerId}`,
  ...emails.map((email) => `e:${email}`),
];

/** The shop customer a billing customer is linked to, as the id's digits ('' when none). */
const linkOf = (doc: Record<string, unknown>) =>
  String(doc.shop_customer_id ?? '')
    .trim()
    .replace(/^gid:\/\/[^/]+\/Customer\//, '');

/**
 * The billing customers among these documents that an erasure covers though it never saw them (the
 * provider told of them after it, dated before it): linked to an erased shop customer, or, without a
 * link, naming an e-mail the erasure covered. Each with when that erasure was.
 */
export function billingCustomersOfErased(
  docs: readonly { id: number; updated_at: string }[],
  customers: ReadonlyMap<number, number>,
  emailErasedAt: (email: string) => number | undefined,
): Map<number, number> {
  const found = new Map<number, number>();
  for (const doc of docs) {
    const fields = doc as unknown as Record<string, unknown>;
    const link = linkOf(fields);
    const erasedAt =
      link !== ''
        ? customers.get(Number(link))
        : typeof fields.email === 'string'
          ? emailErasedAt(fields.email)
          : undefined;
    if (erasedAt !== undefined && timeOf(doc.updated_at) <= erasedAt) found.set(doc.id, erasedAt);
  }
  return found;
}
