import type {
  CollectionInput,
  CustomerInput,
  MarketInput,
  OrderInput,
  ProductInput,
} from '../src/domain/inputs/catalog.js';
import { isVariantInStock } from '../src/domain/catalog/product.js';
import { generateCatalog } from './catalog.js';
import { generateCollections } from './collections.js';
import { generateCustomers } from './customers.js';
import { generateMarkets } from './markets.js';
import { generateOrders } from './orders.js';
import { Random, deriveSeed } from './random.js';

export interface DemoOptions {
  seed?: number;
  productCount?: number;
  now?: Date;
  publicUrl?: string;
}

export interface DemoData {
  products: ProductInput[];
  collections: CollectionInput[];
  customers: CustomerInput[];
  markets: MarketInput[];
  orders: OrderInput[];
}

export interface DemoSummary {
  products: number;
  variants: number;
  outOfStock: number;
  collections: number;
  customers: number;
  orders: number;
  orderLines: number;
}

const CUSTOMER_COUNT = 300;
const ORDER_DAYS = 90;

/** Streams of randomness, one per part, so e.g. the customers do not change with the product count. */
const STREAM = { catalog: 1, collections: 2, customers: 3, markets: 4, orders: 5 } as const;

/** A believable outdoor and home goods shop; the same options always give byte-identical data. */
export function generateDemoShop(options: DemoOptions = {}): DemoData {
  const seed = options.seed ?? 42;
  const now = options.now ?? new Date();
  const publicUrl = (options.publicUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  const rng = (stream: number) => new Random(deriveSeed(seed, stream));
  const { products, profiles } = generateCatalog(rng(STREAM.catalog), {
    count: options.productCount ?? 1000,
    now,
    publicUrl,
  });
  const customers = generateCustomers(rng(STREAM.customers), CUSTOMER_COUNT, now);
  return {
    products,
    collections: generateCollections(rng(STREAM.collections), products, profiles, now),
    customers,
    markets: generateMarkets(rng(STREAM.markets), products),
    orders: generateOrders(rng(STREAM.orders), profiles, {
      now,
      days: ORDER_DAYS,
      customerIds: customers.map((c) => c.id),
    }),
  };
}

/** Row counts of generated demo data, for printing. */
export function demoSummary(data: DemoData): DemoSummary {
  const inStock = (v: ProductInput['variants'][number]) =>
    isVariantInStock({
      inventory_management: v.inventory_management ?? null,
      inventory_policy: v.inventory_policy ?? 'deny',
      inventory_quantity: v.inventory_quantity ?? 0,
    });
  return {
    products: data.products.length,
    variants: data.products.reduce((sum, p) => sum + p.variants.length, 0),
    outOfStock: data.products.filter((p) => !p.variants.some(inStock)).length,
    collections: data.collections.length,
    customers: data.customers.length,
    orders: data.orders.length,
    orderLines: data.orders.reduce((sum, o) => sum + o.line_items.length, 0),
  };
}
