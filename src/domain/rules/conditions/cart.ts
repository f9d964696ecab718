import { parseMoney } from '../../catalog/money.js';
import type { RuleRequest } from '../types.js';
import { ABSENT, operatorOf, splitList, type ConditionSpec, type OperatorSpec } from './shared.js';

const NUMBER_OPS: OperatorSpec[] = [
  { code: 'greater_than', label: 'is more than', value: 'number' },
  { code: 'greater_than_or_equal_to', label: 'is at least', value: 'number' },
  { code: 'less_than', label: 'is less than', value: 'number' },
  { code: 'less_than_or_equal_to', label: 'is at most', value: 'number' },
  { code: 'equal_to', label: 'is exactly', value: 'number' },
  { code: 'between', label: 'is between (inclusive)', value: 'number_range' },
];

function compare(operator: string, actual: number, a: number, b: number): boolean {
  switch (operator) {
    case 'greater_than':
      return actual > a;
    case 'greater_than_or_equal_to':
      return actual >= a;
    case 'less_than':
      return actual < a;
    case 'less_than_or_equal_to':
      return actual <= a;
    case 'equal_to':
      return actual === a;
    case 'between':
      return actual >= a && actual <= b;
    default:
      return false;
  }
}

/** cart_subtotal compares money exactly (decimal units); the counts compare whole numbers. */
function cartCondition(
  type: string,
  label: string,
  read: (r: RuleRequest) => number | null,
  money: boolean,
): ConditionSpec {
  return {
    type,
    label,
    input: type,
    operators: NUMBER_OPS,
    unit: money ? 'money' : 'count',
    compile(condition, path, problems) {
      const op = operatorOf(this, condition, path, problems);
      if (!op) return null;
      const parts = splitList(condition.value);
      const parse = (text: string) => (money ? parseMoney(text) : /^\d{1,9}$/.test(text) ? Number(text) : null);
      const numbers = parts.map(parse);
      const expected = op.code === 'between' ? 2 : 1;
      if (numbers.length !== expected || numbers.some((n) => n === null)) {
        problems.push({
          path: `${path}.value`,
          message:
            op.code === 'between'
              ? `needs "min,max" (${money ? 'decimal amounts' : 'whole numbers'})`
              : `needs a ${money ? 'decimal amount' : 'whole number'}`,
        });
        return null;
      }
      const [a, b = a] = numbers as number[];
      if (op.code === 'between' && b! < a!) {
        problems.push({ path: `${path}.value`, message: 'min must not be greater than max' });
        return null;
      }
      return (request) => {
        const actual = read(request);
        if (actual === null) return ABSENT;
        return { result: compare(op.code, actual, a!, b!), observed: money ? actual / 10_000 : actual };
      };
    },
  };
}

export const cartConditions: ConditionSpec[] = [
  cartCondition('cart_subtotal', 'Cart subtotal', (r) => r.cartSubtotal, true),
  cartCondition('cart_item_count', 'Items in the cart', (r) => r.cartItemCount, false),
  cartCondition('cart_line_count', 'Lines in the cart', (r) => r.cartLineCount, false),
];
