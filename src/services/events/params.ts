import { InvalidInputError } from '../../domain/errors.js';
import { VERBS, type StoreEvent } from '../../domain/events.js';
import type { Query } from '../params.js';

export const MISSING_IDENTITY = 'Missing required args. You must pass either shop_customer_id or uuid.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/;

function text(query: Query, name: string, max: number): string | null {
  const value = query[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new InvalidInputError(name, `Parameter ${name} must be given once, as a string.`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw new InvalidInputError(name, `Parameter ${name} is longer than ${max} characters.`);
  return trimmed === '' ? null : trimmed;
}

/** The visitor a request is about: a session UUID and / or a storefront customer id (one is required). */
export function identityParams(query: Query): { uuid: string | null; customerId: number | null } {
  const uuid = text(query, 'uuid', 64);
  const customer = text(query, 'shop_customer_id', 20);
  if (uuid === null && customer === null) throw new InvalidInputError('uuid', MISSING_IDENTITY);
  if (uuid !== null && !UUID.test(uuid)) throw new InvalidInputError('uuid', `Parameter uuid must be a UUID such as 3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b, got "${uuid.slice(0, 40)}".`);
  if (customer !== null && (!/^\d{1,16}$/.test(customer) || Number(customer) < 1)) {
    throw new InvalidInputError('shop_customer_id', `Parameter shop_customer_id must be a positive integer id, got "${customer.slice(0, 20)}".`);
  }
  return { uuid: uuid?.toLowerCase() ?? null, customerId: customer === null ? null : Number(customer) };
}

/** An event from the query string or JSON body (product.md §6); every failure names its parameter. */
export function parseEvent(query: Query, now: number): StoreEvent {
  const identity = identityParams(query);
  const subject = text(query, 'subject', 20);
  if (subject !== 'user') throw new InvalidInputError('subject', subject === null ? 'Missing required parameter subject (allowed value: user).' : `Parameter subject must be user, got "${subject}".`);
  const verb = text(query, 'verb', 20);
  if (!verb || !(VERBS as readonly string[]).includes(verb)) {
    throw new InvalidInputError('verb', verb === null ? 'Missing required parameter verb (viewed, added or removed).' : `Parameter verb must be viewed, added or removed, got "${verb}".`);
  }
  const noun = text(query, 'noun', 20);
  if (noun !== 'product') throw new InvalidInputError('noun', noun === null ? 'Missing required parameter noun (allowed value: product).' : `Parameter noun must be product, got "${noun}".`);
  const handle = text(query, 'shop_product_handle', 255);
  if (handle === null) throw new InvalidInputError('shop_product_handle', 'Missing required parameter shop_product_handle: product events need the product handle.');
  const email = text(query, 'subject_email', 320);
  if (email !== null && !EMAIL.test(email)) throw new InvalidInputError('subject_email', 'Parameter subject_email must be a valid email address.');
  return {
    uuid: identity.uuid,
    customer_id: identity.customerId,
    subject: 'user',
    verb: verb as StoreEvent['verb'],
    noun: 'product',
    handle,
    subject_email: email,
    theme_id: text(query, 'theme_id', 64),
    created_at: now,
  };
}
