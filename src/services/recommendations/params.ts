import { parseMoney } from '../../domain/catalog/money.js';
import { InvalidInputError } from '../../domain/errors.js';
import { parseRequestTime } from '../../domain/rules/local-time.js';
import type { RuleRequest } from '../../domain/rules/types.js';
import type { CommonOptions } from '../lists/options.js';
import { commonParams, idList, yesNo, type Query } from '../params.js';

/** The custom endpoint's parameters, parsed once (seed §1, product.md §4). */
export interface CustomRequest {
  rule: RuleRequest;
  uuid: string | null;
  options: CommonOptions;
  /** The filter_oos query parameter, which overrides the ruleset's setting when given. */
  filterOos: boolean | null;
  /** The raw query, passed on to endpoint outputs as the caller's context. */
  query: Query;
}

function text(query: Query, name: string, max: number): string | null {
  const value = query[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new InvalidInputError(name, `Parameter ${name} must be given once, as a string.`);
  if (value.length > max) throw new InvalidInputError(name, `Parameter ${name} is longer than ${max} characters.`);
  return value;
}

function count(query: Query, name: string): number | null {
  const raw = text(query, name, 20)?.trim();
  if (raw === undefined || raw === null) return null;
  if (!/^\d{1,9}$/.test(raw)) throw new InvalidInputError(name, `Parameter ${name} must be a whole number of 0 or more, got "${raw.slice(0, 20)}".`);
  return Number(raw);
}

export function parseCustomQuery(query: Query, now: number): CustomRequest {
  const customer = text(query, 'shop_customer_id', 20)?.trim() ?? null;
  if (customer !== null && (!/^\d{1,16}$/.test(customer) || Number(customer) < 1)) {
    throw new InvalidInputError('shop_customer_id', `Parameter shop_customer_id must be a positive integer id, got "${customer.slice(0, 20)}".`);
  }
  const subtotalText = text(query, 'cart_subtotal', 30)?.trim() ?? null;
  const subtotal = subtotalText === null ? null : parseMoney(subtotalText);
  if (subtotalText !== null && (subtotal === null || subtotal < 0)) {
    throw new InvalidInputError('cart_subtotal', `Parameter cart_subtotal must be a non-negative decimal amount, got "${subtotalText.slice(0, 30)}".`);
  }
  const timeText = text(query, 'time', 64);
  const time = timeText === null ? now : parseRequestTime(timeText);
  if (time === null) {
    throw new InvalidInputError('time', `Parameter time must be a unix timestamp (seconds or milliseconds) or an RFC 3339 / RFC 2822 time, got "${timeText!.slice(0, 40)}".`);
  }
  const options = commonParams(query, { fallback: 5, max: 100 });
  const filterOos = query.filter_oos === undefined || query.filter_oos === '' ? null : yesNo(query, 'filter_oos', true);
  return {
    rule: {
      productIds: idList(query, 'shop_product_ids'),
      variantIds: idList(query, 'shop_variant_ids'),
      customerId: customer === null ? null : Number(customer),
      cartSubtotal: subtotal,
      cartItemCount: count(query, 'cart_item_count'),
      cartLineCount: count(query, 'cart_line_count'),
      time,
      url: text(query, 'url', 2048),
      countryCode: options.countryCode,
    },
    uuid: text(query, 'uuid', 100),
    options,
    filterOos,
    query,
  };
}

/** A ruleset id from the path: a positive integer, else 400. */
export function parseRulesetId(raw: string): number {
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < 1) throw new InvalidInputError('ruleset_id', `The ruleset id must be a positive integer, got "${raw.slice(0, 30)}".`);
  return Number(raw);
}
