import type { CatalogStore } from '../store/kysely/catalog.js';
import type { ServingStore } from '../store/kysely/product-serving.js';
import { indexProducts, packPage, unpackServed, type PackedProducts, type ReadPage } from './product-serving.js';
import type { IndexedProduct } from './shop-catalog.js';
import { joinPages } from './shop-snapshot.js';
import { nextTurn } from './turns.js';

/**
 * Products read per query when a shop's catalog is built. Each page is followed by a turn of the
 * event loop: a large shop's load must not hold up the requests of the shops already in memory.
 */
const PRODUCT_PAGE = 1000;

/**
 * The first page of a load is read here, and this small: most shops fit in it, and reading a
 * few hundred stored rows costs about a millisecond, less than the hop to the assembly thread.
 */
const FIRST_PAGE = 250;

/**
 * Products a load reads here, a page of FIRST_PAGE at a time with a turn of the event loop
 * between pages, before it asks the assembly thread for the rest: a 1,000-product shop read here
 * took 9 ms against 22 through the thread, and a node whose shops are all this small never starts
 * that thread (an isolate of about 20 MB, 65 ms or more to start).
 */
const LOCAL_PRODUCTS = 1250;

/**
 * Stored bytes packed in one page read here, and in one of the assembly thread: the page is cut
 * after the product that reaches them. Packing costs about 25 ms a MB of rows (a typical product's
 * is 1–2 KB, so a 250-product page is well within it; a product at the platform's bounds, 250 tags
 * of 110 characters, is 28 KB, and a page of 250 of them held every shop of the process 160 ms).
 */
export const PAGE_BYTES_HERE = 512 * 1024;
const PAGE_BYTES_THREAD = 8 * 1024 * 1024;

/** Stored bytes read here before the assembly thread is asked for the rest, as LOCAL_PRODUCTS. */
const LOCAL_BYTES = 2 * 1024 * 1024;

/**
 * Where a page of a shop's products starts (after the product of that id), how many it holds at
 * most, and the stored bytes it stops at.
 */
type PageRange = { afterId: number; limit: number; maxBytes: number };

/** The next page's limit: `nominal`, or fewer when the page before says that many would pass `maxBytes`. */
function limitAfter(page: ReadPage, nominal: number, maxBytes: number): number {
  if (page.count === 0 || page.size === 0) return nominal;
  return Math.max(1, Math.min(nominal, Math.floor((maxBytes * page.count) / page.size)));
}

/** A shop's products as a load reads them, and their packed rows when a snapshot can keep them. */
export type ReadProducts = { products: Map<number, IndexedProduct>; packed: PackedProducts | null };

/**
 * Reads a page of a shop's products from the store in another thread, packed for `unpackServed`;
 * null when that thread is not ready, and the load reads the page itself.
 */
export type ServedPageReader = (shopId: number, page: PageRange) => Promise<ReadPage> | null;

/** A shop's products read from their stored serving rows, a page at a time (docs/scaling.md). */
export class ProductPages {
  private readonly readHere: (shopId: number, page: PageRange) => Promise<ReadPage>;

  constructor(
    private readonly store: ServingStore & Pick<CatalogStore, 'listProducts'>,
    /** Where pages after the first are read and packed: the assembly thread, else this one. */
    private readonly readPage?: ServedPageReader,
    /** Products read here before the assembly thread is asked for the rest. */
    private readonly localProducts = LOCAL_PRODUCTS,
  ) {
    this.readHere = async (shopId, page) => packPage(await store.listServedProducts(shopId, page), page);
  }

  /**
   * Products a page at a time from their stored serving rows: bytes and small index fields, no
   * document parsed; the first page is read here, the others in the assembly thread when it is
   * ready, each asked for before the previous one is unpacked. A product without a current row
   * (written before the rows, or by an older serializer) is read from its document instead.
   * `packed`: every product's row in one packed page, for a snapshot, when the shop has fewer products
   * than a load reads here (`localProducts`) and all of their rows were current.
   */
  async read(shopId: number, forSnapshot: boolean): Promise<ReadProducts> {
    const products = new Map<number, IndexedProduct>();
    const pages: PackedProducts[] = [];
    let packable = forSnapshot;
    let range: PageRange = { afterId: 0, limit: FIRST_PAGE, maxBytes: PAGE_BYTES_HERE };
    let asked = range.limit;
    let bytes = 0;
    let next: Promise<ReadPage> | null = this.readHere(shopId, range);
    while (next) {
      const page: ReadPage = await next;
      bytes += page.size;
      // Without the thread every page is read here, and as small: a turn of the loop between each.
      const local = asked < this.localProducts && bytes < LOCAL_BYTES;
      const here = local || this.readPage === undefined;
      // A shop past what a load reads here keeps no snapshot, thread or not (MAX_SNAPSHOT_BYTES).
      packable &&= local || !page.more;
      const [nominal, maxBytes] = here ? [FIRST_PAGE, PAGE_BYTES_HERE] : [PRODUCT_PAGE, PAGE_BYTES_THREAD];
      range = { afterId: page.lastId ?? 0, limit: limitAfter(page, nominal, maxBytes), maxBytes };
      asked += range.limit;
      next = page.more ? this.page(shopId, range, here) : null;
      // Awaited next turn; its failure is not unhandled meanwhile, nor when unpacking this page fails.
      next?.catch(() => undefined);
      packable &&= page.stale.length === 0;
      if (packable) pages.push(page);
      else pages.length = 0;
      for (const product of await this.unpack(shopId, page)) products.set(product.id, product);
    }
    return { products, packed: packable ? joinPages(pages) : null };
  }

  /**
   * A page after the first: from the assembly thread, which reads it while this thread unpacks the
   * previous one, or read here after a turn of the event loop (once that page is unpacked). No
   * turn before a thread's page: waiting for the thread is one, and an explicit one left the thread
   * idle while the rest of the load, queued meanwhile, held the loop.
   */
  private async page(shopId: number, page: PageRange, here: boolean): Promise<ReadPage> {
    const threaded = here ? null : this.readPage?.(shopId, page);
    if (threaded) return threaded;
    await nextTurn();
    return this.readHere(shopId, page);
  }

  /**
   * These products (patches of a resident shop), a page of ids at a time with a turn of the event
   * loop between pages, each page cut at PAGE_BYTES_HERE: a resident shop's import of 100,000
   * products, read back at once, held every other shop's requests about 0.3 s, and its garbage as
   * long again; 1,000 products at the tag bounds, read back a thousand a page, 0.4–0.6 s.
   */
  async byId(shopId: number, ids: readonly number[]): Promise<IndexedProduct[]> {
    const sorted = [...ids].sort((a, b) => a - b); // a cut page goes on after its last id
    const products: IndexedProduct[] = [];
    let limit = PRODUCT_PAGE;
    for (let start = 0; start < sorted.length; ) {
      if (start > 0) await nextTurn();
      const asked = sorted.slice(start, start + limit);
      const rows = await this.store.listServedProducts(shopId, { ids: asked });
      const page = packPage(rows, { maxBytes: PAGE_BYTES_HERE });
      for (const product of await this.unpack(shopId, page)) products.push(product);
      const cutAt = page.more ? asked.findIndex((id) => id > page.lastId!) : -1;
      start += cutAt === -1 ? asked.length : cutAt;
      limit = limitAfter(page, PRODUCT_PAGE, PAGE_BYTES_HERE);
    }
    return products;
  }

  private async unpack(shopId: number, page: PackedProducts): Promise<IndexedProduct[]> {
    const products = unpackServed(page);
    if (page.stale.length === 0) return products;
    products.push(...indexProducts(await this.store.listProducts(shopId, { ids: page.stale })));
    return products.sort((a, b) => a.id - b.id); // id order, as the store gives them
  }
}
