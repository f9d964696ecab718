import { ABSENT, operatorOf, setTest, splitList, type ConditionSpec } from './shared.js';
import { productRefsOf } from './products.js';

export const customerCondition: ConditionSpec = {
  type: 'customer',
  label: 'Customer',
  input: 'shop_customer_id',
  operators: [
    { code: 'is_logged_in', label: 'is logged in', value: 'none' },
    { code: 'is_guest', label: 'is a guest', value: 'none' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    if (!op) return null;
    // The one condition about absence itself: a guest is a request without a customer id.
    return (request) => ({
      result: (request.customerId !== null) === (op.code === 'is_logged_in'),
      observed: request.customerId,
    });
  },
};

/**
 * A customer's tags lower-cased, made once for each list the index holds (customers share their lists):
 * made again by each condition, 2,000 conditions on a customer of 250 long tags held every shop 350 ms.
 */
const lowerCasedSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function lowerCasedSet(tags: readonly string[]): ReadonlySet<string> {
  let set = lowerCasedSets.get(tags);
  if (set === undefined) {
    set = new Set(tags.map((t) => t.toLowerCase()));
    lowerCasedSets.set(tags, set);
  }
  return set;
}

export const customerTagCondition: ConditionSpec = {
  type: 'customer_tag',
  label: 'Tags of the customer',
  input: 'shop_customer_id (stored customer)',
  operators: [
    { code: 'contains_any', label: 'has any of', value: 'text_list' },
    { code: 'does_not_contain_any', label: 'has none of', value: 'text_list' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const wanted = splitList(condition.value).map((v) => v.toLowerCase());
    if (wanted.length === 0) problems.push({ path: `${path}.value`, message: 'needs a comma-separated list of tags' });
    if (!op || wanted.length === 0) return null;
    return (request, world) => {
      if (request.customerId === null) return ABSENT;
      const tags = world.customerTags(request.customerId);
      if (tags === null) return ABSENT;
      const have = lowerCasedSet(tags);
      return { result: setTest(op.code, wanted, (t) => have.has(t)), observed: tags };
    };
  },
};

export const customerPurchasedCondition: ConditionSpec = {
  type: 'customer_purchased',
  label: 'Customer bought before',
  input: 'shop_customer_id (past orders)',
  operators: [
    { code: 'contains_any', label: 'any of', value: 'products' },
    { code: 'does_not_contain_any', label: 'none of', value: 'products' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const refs = productRefsOf(condition, path, problems);
    if (!op || !refs) return null;
    return (request, world) => {
      if (request.customerId === null) return ABSENT;
      const bought = world.customerPurchased(request.customerId);
      if (bought === null) return ABSENT;
      return {
        result: setTest(op.code, refs, (ref) => bought.has(ref.product_id)),
        observed: [...bought.keys()].slice(0, 50),
      };
    };
  },
};
