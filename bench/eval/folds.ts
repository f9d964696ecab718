/** Rolling-origin folds of a purchase log: each trained on the orders before its cut, scored on the weeks after it. */
import { DAY_MS, type Invoice } from './retail.js';
import { sample } from './metrics.js';
import { getOrCreate } from '../../src/domain/maps.js';

/** Days after a cut whose orders a fold scores. */
export const WINDOW_DAYS = 28;
/** Cuts at these shares of the span from the first order to the last cut that leaves a full window. */
export const CUT_SHARES = [0.25, 0.5, 0.75, 1] as const;
export const CUSTOMER_SAMPLE = 1000;
export const BASKET_SAMPLE = 1500;
const SEED = 20_111_031;

export interface CustomerCase {
  customer: number;
  targets: ReadonlySet<number>;
}
export interface BasketCase {
  input: number;
  targets: ReadonlySet<number>;
}

export interface Fold {
  label: string;
  cut: number;
  train: Invoice[];
  test: Invoice[];
  /** Returning customers (bought before the cut) and what each bought in the window. */
  customers: CustomerCase[];
  /** Window orders of two or more products: the first (by id) in, the rest as targets. */
  baskets: BasketCase[];
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The folds of a log (orders sorted by time). */
export function rollingFolds(orders: readonly Invoice[]): Fold[] {
  const first = orders[0]!.at;
  const last = orders[orders.length - 1]!.at;
  const span = last - WINDOW_DAYS * DAY_MS - first;
  return CUT_SHARES.map((share) => {
    const cut = Math.floor((first + share * span) / DAY_MS) * DAY_MS;
    const train = orders.filter((o) => o.at < cut);
    const test = orders.filter((o) => o.at >= cut && o.at < cut + WINDOW_DAYS * DAY_MS);
    return {
      label: `${day(cut)} + ${WINDOW_DAYS} d`,
      cut,
      train,
      test,
      customers: customerCases(train, test),
      baskets: basketCases(test),
    };
  });
}

function customerCases(train: readonly Invoice[], test: readonly Invoice[]): CustomerCase[] {
  const known = new Set(train.flatMap((o) => (o.customer === null ? [] : [o.customer])));
  const bought = new Map<number, Set<number>>();
  for (const order of test) {
    if (order.customer === null || !known.has(order.customer)) continue;
    const set = getOrCreate(bought, order.customer, () => new Set());
    for (const id of order.items.keys()) set.add(id);
  }
  const customers = [...bought.keys()].sort((a, b) => a - b);
  return sample(customers, CUSTOMER_SAMPLE, SEED).map((customer) => ({ customer, targets: bought.get(customer)! }));
}

function basketCases(test: readonly Invoice[]): BasketCase[] {
  const cases = test
    .filter((o) => o.items.size >= 2)
    .map((o) => {
      const [input, ...rest] = [...o.items.keys()].sort((a, b) => a - b);
      return { input: input!, targets: new Set(rest) };
    });
  return sample(cases, BASKET_SAMPLE, SEED);
}
