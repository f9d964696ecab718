import MiniSearch from 'minisearch';
import { plainText } from '../domain/catalog/text.js';
import type { IndexedProduct, ShopCatalog } from './shop-catalog.js';
import { nextTurn } from './turns.js';

interface SearchDocument {
  id: number;
  title: string;
  tags: string;
  product_type: string;
  vendor: string;
  skus: string;
  body: string;
}

/** Description text indexed per product: enough to find a product by its description, bounded however long it is. */
const MAX_BODY_TEXT = 2000;
/**
 * The other fields' text indexed per product, each: the platform's own bound on a vendor or a type,
 * and the first words of a product's tags and SKUs (250 tags or 2,048 SKUs of 255 characters each
 * are 64 and 520 KB). Uncut, a vendor of 600,000 words (stored before its bound) held every shop's
 * thread 5 s a rebuild of the index.
 */
const MAX_NAME_TEXT = 255;
const MAX_LIST_TEXT = 2000;

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The text of body_html, read back from the pre-serialized head of the product. */
function bodyText(product: IndexedProduct): string {
  const head = product.json.head;
  const fields = JSON.parse(`${head.slice(0, -',"variants":['.length)}}`) as { body_html?: string };
  return plainText(fields.body_html ?? '', MAX_BODY_TEXT);
}

/** The product's SKUs, as far as MAX_LIST_TEXT: a product of 2,048 variants is not read whole. */
function skusOf(product: IndexedProduct): string {
  let text = '';
  for (const variant of product.json.variants) {
    if (text.length >= MAX_LIST_TEXT) break;
    const sku = /"sku":"((?:[^"\\]|\\.)*)"/.exec(variant)?.[1];
    if (sku) text += text === '' ? sku : ` ${sku}`;
  }
  return text;
}

/** Products indexed per turn of the event loop: other requests run between the chunks. */
const CHUNK = 200;

/**
 * A full-text index of a catalog generation, made on its first search: title weighs most, then
 * tags, type and vendor, SKUs, and the description; the last word a prefix, typos tolerated (docs/lists.md,
 * "search"). It is built in chunks, so a large catalog's build never holds the event loop: the
 * search that asks for it waits, every other request goes on.
 */
export function searchIndex(catalog: ShopCatalog): Promise<MiniSearch<SearchDocument>> {
  return catalog.memo('search-index', async () => {
    const index = new MiniSearch<SearchDocument>({
      fields: ['title', 'tags', 'product_type', 'vendor', 'skus', 'body'],
      searchOptions: {
        boost: { title: 4, tags: 2, product_type: 2, vendor: 1.5, skus: 1.5, body: 0.5 },
        // Only the last word is a prefix (the word being typed): a one-letter prefix reaches most of a catalog's
        // words, and a query of many such words held a worker for seconds.
        prefix: (_term: string, i: number, terms: string[]) => i === terms.length - 1,
        fuzzy: (term) => (term.length > 4 ? 0.25 : term.length > 3 ? 0.2 : false),
        combineWith: 'AND',
      },
    });
    const listable = [...catalog.products.values()].filter((p) => p.listable);
    for (let start = 0; start < listable.length; start += CHUNK) {
      if (start > 0) await nextTurn();
      index.addAll(
        listable.slice(start, start + CHUNK).map((p) => ({
          id: p.id,
          title: cut(p.title, MAX_LIST_TEXT),
          tags: cut(p.tags.join(' '), MAX_LIST_TEXT),
          product_type: cut(p.productType, MAX_NAME_TEXT),
          vendor: cut(p.vendor, MAX_NAME_TEXT),
          skus: cut(skusOf(p), MAX_LIST_TEXT),
          body: bodyText(p),
        })),
      );
    }
    return index;
  });
}
