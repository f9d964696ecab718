import { describe, expect, it } from 'vitest';
import { type ErasedRecords, withoutErased } from '../../src/store/kysely/erasure-reach.js';

/**
 * What another customer's export loses at an erasure (src/store/kysely/erasure-reach.ts), record by
 * record: what the erasure deleted, and nothing of the export's own customer.
 */
describe("another customer's export at an erasure", () => {
  const erased: ErasedRecords = {
    customerId: 1,
    emails: ['bob@example.com'],
    tokens: [],
    eventIds: new Set([10]),
    trackIds: new Set([20]),
    visitors: new Set(['u:shared']),
    billingIds: new Set([101]),
  };
  const exported = {
    customer: { id: 2, email: 'jim@example.com' },
    events: [
      { id: 10, customer_id: null, subject_email: null },
      { id: 11, customer_id: 2, subject_email: 'bob@example.com' },
      { id: 12, customer_id: null, subject_email: 'Bob@example.com' },
      { id: 13, customer_id: 2, subject_email: null },
    ],
    tracking: [{ id: 20 }, { id: 21 }],
    experiment_visitors: [{ visitor: 'u:shared' }, { visitor: 'c:2' }],
    track_counted: [{ visitor: 'u:shared' }],
    billing_customers: [{ id: 101 }, { id: 102 }],
    billing_addresses: [{ id: 501, customer_id: 101 }],
    billing_subscriptions: [{ id: 601, customer_id: 102 }],
    billing_charges: [{ id: 7001, customer_id: 101 }],
    billing_onetimes: [{ id: 801, customer_id: 101, properties: [{ name: 'engraving', value: 'For Bob' }] }],
    billing_orders: [{ id: 901, charge_id: 7001, customer_id: 101 }],
    campaign_claims: [{ campaign_id: 1, customer_id: 101, claims: 1 }],
  };

  it('loses the erased records, billing ones included, and keeps its own signed-in events naming the address', () => {
    const kept = withoutErased(exported, erased);
    expect(kept).toEqual({
      ...exported,
      events: [
        { id: 11, customer_id: 2, subject_email: 'bob@example.com' },
        { id: 13, customer_id: 2, subject_email: null },
      ],
      tracking: [{ id: 21 }],
      experiment_visitors: [{ visitor: 'c:2' }],
      track_counted: [],
      billing_customers: [{ id: 102 }],
      billing_addresses: [],
      billing_charges: [],
      billing_onetimes: [],
      billing_orders: [],
      campaign_claims: [],
    });
  });

  it('is the same object when it held nothing of theirs', () => {
    const own = { customer: { id: 2 }, events: [{ id: 13, customer_id: 2 }] };
    expect(withoutErased(own, erased)).toBe(own);
  });
});
