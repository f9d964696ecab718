/** What the Privacy page shows of the privacy requests and erasures (pure: tested from test/console). */

import { isEmailAddress } from '../../../src/domain/params/email-address.js';

export interface PrivacyRequest {
  id: string;
  kind: string;
  customer_id: number | null;
  received_at: string;
  export: Record<string, unknown> | null;
}

/** What an erasure removed or anonymised, as the API counts it. */
export interface ErasureCounts {
  customers?: number;
  events?: number;
  track_events?: number;
  orders?: number;
  billing_customers?: number;
}

/**
 * A customer id as the merchant types it: a whole number from 1 up, as the platform's ids are
 * (past 31 bits, so not a number field's spinner); null for anything else.
 */
export function customerIdOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^[1-9][0-9]*$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return Number.isSafeInteger(id) ? id : null;
}

/** Who made the request, in words: the platform's requests are applied as they arrive. */
export function kindLabel(request: Pick<PrivacyRequest, 'kind' | 'id'>): string {
  switch (request.kind) {
    case 'data_request':
      return request.id.startsWith('export-') ? 'Data export (made here)' : 'Data request (from your store)';
    case 'redact':
      return 'Erasure (from your store)';
    case 'erasure':
      return 'Erasure (made here)';
    default:
      return request.kind;
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why an e-mail the merchant typed cannot be sent, or null when it can (empty: none given). */
export function emailProblem(text: string): string | null {
  const email = text.trim();
  if (email === '' || isEmailAddress(email)) return null;
  return `“${email.slice(0, 80)}” is not an e-mail address: check it, or leave the field empty.`;
}

/** An export that found nothing: no customer row and every list empty (a mistyped id, or one erased before). */
export function isEmptyExport(records: Record<string, unknown> | null): boolean {
  if (records === null) return true;
  return Object.values(records).every((v) => v === null || (Array.isArray(v) && v.length === 0));
}

/** What an erasure did, in a sentence a merchant can pass on to the customer. */
export function erasureSummary(customerId: number, counts: ErasureCounts): string {
  if (Object.values(counts).every((n) => !n))
    return `Nothing was stored about customer ${customerId}, so nothing was erased: check the id.`;
  const parts = [
    plural(counts.customers ?? 0, 'customer record', 'customer records') + ' deleted',
    plural((counts.events ?? 0) + (counts.track_events ?? 0), 'browsing event', 'browsing events') + ' deleted',
    plural(counts.orders ?? 0, 'order', 'orders') + ' kept as anonymous sales',
    plural(counts.billing_customers ?? 0, 'subscription customer', 'subscription customers') +
      ' stripped of personal details',
  ];
  return `Customer ${customerId} is erased: ${parts.join(', ')}.`;
}

/** The file a data export is downloaded as. */
export function exportFileName(request: Pick<PrivacyRequest, 'customer_id' | 'received_at'>): string {
  const day = request.received_at.slice(0, 10);
  return `customer-${request.customer_id ?? 'unknown'}-data-${day}.json`;
}
