import { readCsvGz } from './csv.js';
import { getOrCreate } from '../../src/domain/maps.js';

export const DAY_MS = 86_400_000;
const PRODUCT_CODE = /^\d{5}[A-Z]*$/;
const INVOICE_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** One catalog product derived from a StockCode. */
export interface RetailProduct {
  id: number;
  code: string;
  title: string;
  price: string;
  tag: string | null;
}

/** One non-cancelled invoice: product id → units and unit price. */
export interface Invoice {
  id: number;
  at: number;
  customer: number | null;
  items: Map<number, { quantity: number; price: number }>;
}

/** The data set mapped to products and invoices, split by time. */
export interface Retail {
  rows: number;
  products: RetailProduct[];
  train: Invoice[];
  valid: Invoice[];
  lastAt: number;
  cutoff: number;
}

interface CodeStats {
  saleTitles: Map<string, number>;
  anyTitles: Map<string, number>;
  prices: number[];
}
interface RawInvoice {
  id: number;
  at: number;
  customer: number | null;
  items: Map<string, { quantity: number; price: number }>;
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

function mostCommon(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [key, count] of counts)
    if (count > bestCount || (count === bestCount && best !== null && key < best)) {
      best = key;
      bestCount = count;
    }
  return best;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A price as a positive two-decimal string ("0.01" when there is none). */
export function priceString(value: number): string {
  const text = value.toFixed(2);
  return Number(text) > 0 ? text : '0.01';
}

/**
 * Reads the gzipped Online Retail CSV, keeps product StockCodes and
 * non-cancelled invoices, splits off the last `validDays` days.
 */
export async function loadRetail(path: string, validDays: number): Promise<Retail> {
  const stats = new Map<string, CodeStats>();
  const invoices = new Map<number, RawInvoice>();
  let header: Map<string, number> | null = null;
  let rows = 0;
  let lastAt = 0;
  for await (const record of readCsvGz(path)) {
    if (header === null) {
      header = new Map(record.map((name, i) => [name, i]));
      continue;
    }
    if (record.length !== header.size)
      throw new Error(`record ${rows + 2}: ${record.length} fields, the header has ${header.size}`);
    const col = (name: string) => record[header!.get(name) ?? -1]?.trim() ?? '';
    rows++;
    const date = col('InvoiceDate');
    if (!INVOICE_DATE.test(date)) throw new Error(`row ${rows + 1}: bad InvoiceDate "${date}"`);
    const at = Date.parse(`${date.replace(' ', 'T')}Z`);
    if (at > lastAt) lastAt = at;
    const code = col('StockCode').toUpperCase();
    if (!PRODUCT_CODE.test(code)) continue;
    const quantity = Number(col('Quantity'));
    const price = Number(col('UnitPrice'));
    const title = col('Description');
    const s = getOrCreate(stats, code, () => ({ saleTitles: new Map(), anyTitles: new Map(), prices: [] }));
    if (title !== '' && title !== 'NA') bump(quantity > 0 && price > 0 ? s.saleTitles : s.anyTitles, title);
    if (quantity > 0 && price > 0) s.prices.push(price);
    const invoiceNo = col('InvoiceNo');
    if (!/^\d+$/.test(invoiceNo) || !(quantity > 0) || !Number.isInteger(quantity)) continue;
    const id = Number(invoiceNo);
    let invoice = invoices.get(id);
    if (!invoice) {
      const customer = Number(col('CustomerID'));
      invoice = { id, at, customer: Number.isInteger(customer) && customer > 0 ? customer : null, items: new Map() };
      invoices.set(id, invoice);
    }
    const item = invoice.items.get(code);
    if (item) item.quantity += quantity;
    else invoice.items.set(code, { quantity, price: Math.max(price, 0) });
  }

  const codes = [...stats.keys()].sort();
  const idOf = new Map(codes.map((code, i) => [code, i + 1000]));
  const products = codes.map((code): RetailProduct => {
    const s = stats.get(code)!;
    const title = mostCommon(s.saleTitles) ?? mostCommon(s.anyTitles) ?? code;
    const tag = title
      .split(/\s+/)[0]!
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    return { id: idOf.get(code)!, code, title, price: priceString(median(s.prices)), tag: tag === '' ? null : tag };
  });
  const dataEnd = Math.floor(lastAt / DAY_MS) * DAY_MS + DAY_MS;
  const cutoff = dataEnd - validDays * DAY_MS;
  const train: Invoice[] = [];
  const valid: Invoice[] = [];
  for (const raw of [...invoices.values()].sort((a, b) => a.at - b.at || a.id - b.id)) {
    const items = new Map(
      [...raw.items].map(([code, item]) => [idOf.get(code)!, item] as const).sort((a, b) => a[0] - b[0]),
    );
    (raw.at < cutoff ? train : valid).push({ id: raw.id, at: raw.at, customer: raw.customer, items });
  }
  return { rows, products, train, valid, lastAt, cutoff };
}
