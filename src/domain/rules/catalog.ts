import { cartConditions } from './conditions/cart.js';
import { customerCondition, customerPurchasedCondition, customerTagCondition } from './conditions/customer.js';
import { attributeConditions, collectionCondition, productCondition, variantCondition } from './conditions/products.js';
import { anythingCondition, countryCondition, urlCondition } from './conditions/request.js';
import type { ConditionSpec, ValueKind } from './conditions/shared.js';
import { dateCondition, dayOfWeekCondition, timeOfDayCondition } from './conditions/time.js';
import { OUTPUTS, type OutputSpec } from './outputs.js';

/** Every condition type, in the order the console offers them (docs/rules.md, the complete set). */
export const CONDITIONS: readonly ConditionSpec[] = [
  anythingCondition,
  productCondition,
  variantCondition,
  ...attributeConditions,
  collectionCondition,
  ...cartConditions,
  customerCondition,
  customerTagCondition,
  customerPurchasedCondition,
  dateCondition,
  dayOfWeekCondition,
  timeOfDayCondition,
  urlCondition,
  countryCondition,
];

export const CONDITIONS_BY_TYPE = new Map(CONDITIONS.map((c) => [c.type, c]));

/** The catalog as data, for `GET /admin/v1/rule-catalog`: the console renders its forms from it. */
export function describeRuleCatalog(endpoints: readonly string[]) {
  return {
    conditions: CONDITIONS.map((c) => ({
      type: c.type,
      label: c.label,
      input: c.input,
      ...(c.unit ? { unit: c.unit } : {}),
      operators: c.operators.map((o) => ({ code: o.code, label: o.label, value: o.value })),
    })),
    outputs: OUTPUTS.map((o: OutputSpec) => ({
      type: o.type,
      label: o.label,
      value: o.value,
      description: o.description,
    })),
    value_kinds: VALUE_KINDS,
    endpoints,
  };
}

const VALUE_KINDS: Record<ValueKind | 'collection' | 'tag_list' | 'endpoint', string> = {
  none: 'no value',
  products: 'products: [{product_id, variant_ids}]',
  variant_id_list: 'value: comma-separated variant ids',
  collection_id_list: 'value: comma-separated collection ids',
  text_list: 'value: comma-separated values (case-insensitive)',
  text_list_or_regex: 'value: comma-separated values or /regex/flags',
  number: 'value: a number (decimal amount for cart_subtotal)',
  number_range: 'value: "min,max", inclusive',
  date: 'value: an ISO date (YYYY-MM-DD) or date-time; without an offset it is read in the shop time zone',
  date_range: 'value: "start,end" ISO dates or date-times, inclusive',
  weekday_list: 'value: comma-separated days: mon,tue,wed,thu,fri,sat,sun',
  time_range: 'value: "HH:MM,HH:MM", start inclusive, end exclusive, may wrap midnight',
  text: 'value: text',
  text_or_regex: 'value: /regex/flags or a plain pattern',
  country_list: 'value: comma-separated ISO 3166-1 alpha-2 codes',
  collection: 'collection_id: a collection id',
  tag_list: 'value: comma-separated tags',
  endpoint: 'endpoint: a list endpoint path with optional query',
};
