import { InvalidInputError } from '../../domain/errors.js';
import type { Query } from '../params.js';

const TOKEN = /^[A-Za-z0-9_-]+$/;

function text(query: Query, name: string): string | null {
  const value = query[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new InvalidInputError(name, `Parameter ${name} must be given once, as a string.`);
  return value.trim() === '' ? null : value.trim();
}

export function positiveId(query: Query, name: string, required: boolean): number | null {
  const raw = text(query, name);
  if (raw === null) {
    if (required) throw new InvalidInputError(name, `Missing required endpoint argument: ${name}.`);
    return null;
  }
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < 1) throw new InvalidInputError(name, `Parameter ${name} must be a positive integer id, got "${raw.slice(0, 30)}".`);
  return Number(raw);
}

/** A short code of letters, digits, dashes and underscores (tracking keys, discount codes). */
export function code(query: Query, name: string, max: number): string | null {
  const raw = text(query, name);
  if (raw === null) return null;
  if (raw.length > max || !TOKEN.test(raw)) {
    throw new InvalidInputError(name, `Parameter ${name} must be at most ${max} letters, digits, dashes or underscores.`);
  }
  return raw;
}

export interface ReactivateParams {
  customerId: number;
  subscriptionIds: number[] | 'all';
  campaignId: number | null;
  discountCode: string | null;
  tk: string | null;
  live: boolean;
}

/** `GET /api/v1/billing/reactivate` parameters (product.md §7). */
export function parseReactivateQuery(query: Query): ReactivateParams {
  const rawIds = text(query, 'billing_subscription_ids');
  let subscriptionIds: number[] | 'all' = 'all';
  if (rawIds !== null && rawIds.toLowerCase() !== 'all') {
    const parts = rawIds.split(',').map((p) => p.trim()).filter(Boolean);
    if (parts.length > 250) throw new InvalidInputError('billing_subscription_ids', 'Parameter billing_subscription_ids takes at most 250 ids.');
    subscriptionIds = parts.map((p) => {
      if (!/^\d{1,16}$/.test(p) || Number(p) < 1) throw new InvalidInputError('billing_subscription_ids', `Parameter billing_subscription_ids must be comma-separated ids or all; "${p.slice(0, 30)}" is neither.`);
      return Number(p);
    });
  }
  const type = (text(query, 'request_type') ?? 'preview').toLowerCase();
  if (type !== 'preview' && type !== 'live') throw new InvalidInputError('request_type', 'Parameter request_type must be preview or live.');
  return {
    customerId: positiveId(query, 'billing_customer_id', true)!,
    subscriptionIds,
    campaignId: positiveId(query, 'campaign_id', false),
    discountCode: code(query, 'billing_discount_code', 100),
    tk: code(query, 'tk', 40),
    live: type === 'live',
  };
}
