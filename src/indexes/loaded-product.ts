import type { ProductJson } from './product-json.js';
import { type ProductColumns, tagListAt, textAt } from './product-columns.js';
import { pageTextBytes } from './footprint.js';
import type { IndexedProduct, IndexedVariant, SharedText } from './shop-catalog.js';

/** Tags lower-cased for matching: the same array when they already are (most shops' tags), not a copy. */
function lowerCased(tags: readonly string[]): readonly string[] {
  for (let i = 0; i < tags.length; i++) if (tags[i]!.toLowerCase() !== tags[i]) return tags.map((t) => t.toLowerCase());
  return tags;
}

/** The main image's URL of a product's answer (the admin insights show it; nothing on the storefront path). */
function mainImage(json: ProductJson): string | null {
  const product = JSON.parse(json.plain.toString()) as {
    image?: { src?: string } | null;
    images?: { src?: string }[];
  };
  return product.image?.src ?? product.images?.[0]?.src ?? null;
}

/**
 * The columns a page of loaded products reads from. Per product, a load makes one small object
 * (its page and its index) and no answer object until one is read: thirteen fields on the object
 * and an answer object each (its bytes' place in the page) were 56 bytes a product more of every
 * resident shop, and two heap objects that every young-generation collection after the load
 * copied (docs/scaling.md, "What a load leaves to the collector"). Vendors, product types and
 * lists of tags are held once per page, as the page's columns keep them.
 */
interface LoadedPage {
  readonly ids: Float64Array;
  /** Handle and title, two a product, each decoded on its first read. */
  readonly text: (k: number) => string;
  readonly kinds: readonly string[];
  readonly vendorOf: Uint32Array;
  readonly typeOf: Uint32Array;
  /** The page's distinct lists of tags, as given and lower-cased (each made on its first read), and each product's. */
  readonly tagList: (k: number) => readonly string[];
  readonly tagListLower: (k: number) => readonly string[];
  readonly tagListOf: Uint32Array;
  readonly listable: Uint8Array;
  readonly inStock: Uint8Array;
  /** Id and price two numbers a variant, in stock one byte; product i's variants end at `variantEnds[i]`. */
  readonly variants: Float64Array;
  readonly stock: Uint8Array;
  readonly variantEnds: Uint32Array;
  /** A product's answer object, made on its first read (most products of a shop of the long tail are never shown). */
  readonly json: (i: number) => ProductJson;
  /** The length of a product's answer bytes as memory keeps them, without making its answer object. */
  readonly storedLength: (i: number) => number;
  readonly sharedText: SharedText;
}

/** Answers made already (products serialized here and now), or made on first read from a page's bytes. */
export type PageAnswers = { made: readonly ProductJson[] } | { make: (i: number) => ProductJson; ends: Uint32Array };

/** The page's products, made of its columns. */
export function loadedPage(ids: Float64Array, c: ProductColumns, answers: PageAnswers): IndexedProduct[] {
  const n = ids.length;
  const lists = c.tagListEnds.length;
  const tagList = memoized<readonly string[]>(lists, (k) => tagListAt(c, k));
  const inStock = new Uint8Array(n);
  for (let i = 0; i < n; i++)
    for (let v = i === 0 ? 0 : c.variantEnds[i - 1]!; v < c.variantEnds[i]! && inStock[i] === 0; v++)
      inStock[i] = c.stock[v]!;
  const page: LoadedPage = {
    ids,
    text: memoized(2 * n, (k) => textAt(c, k)),
    kinds: c.kinds,
    vendorOf: c.vendorOf,
    typeOf: c.typeOf,
    tagList,
    tagListLower: memoized(lists, (k) => lowerCased(tagList(k))),
    tagListOf: c.tagListOf,
    listable: c.listable,
    inStock,
    variants: c.variants,
    stock: c.stock,
    variantEnds: c.variantEnds,
    ...answersOf(answers, n),
    sharedText: { bytes: pageTextBytes(c) },
  };
  const out = new Array<IndexedProduct>(n);
  for (let i = 0; i < n; i++) out[i] = new LoadedProduct(page, i);
  return out;
}

/**
 * Values by index made on first read, then kept: a load made every list of tags of its page and its
 * lower-cased copy (a tenth of what it allocated), and most are never read while the shop is resident.
 */
function memoized<T>(n: number, make: (k: number) => T): (k: number) => T {
  // The list itself is made on the first read too: a shop of the long tail may never read any.
  let made: (T | undefined)[] | undefined;
  return (k) => {
    made ??= new Array<T | undefined>(n);
    let value = made[k];
    if (value === undefined) {
      value = make(k);
      made[k] = value;
    }
    return value;
  };
}

function answersOf(answers: PageAnswers, n: number): Pick<LoadedPage, 'json' | 'storedLength'> {
  if ('made' in answers) {
    const { made } = answers;
    return { json: (i) => made[i]!, storedLength: (i) => made[i]!.storedLength };
  }
  const { make, ends } = answers;
  return {
    json: memoized(n, make),
    storedLength: (i) => ends[i]! - (i === 0 ? 0 : ends[i - 1]!),
  };
}

/**
 * A product of the read model: every field read from its page's columns. The variants' list is
 * made on each read; the hot paths read it for the few products of an answer.
 */
class LoadedProduct implements IndexedProduct {
  // Private in the language's own sense: not an own property that a spread or a comparison sees.
  readonly #page: LoadedPage;
  readonly #i: number;

  constructor(page: LoadedPage, i: number) {
    this.#page = page;
    this.#i = i;
  }

  get id(): number {
    return this.#page.ids[this.#i]!;
  }

  get handle(): string {
    return this.#page.text(2 * this.#i);
  }

  get title(): string {
    return this.#page.text(2 * this.#i + 1);
  }

  get vendor(): string {
    return this.#page.kinds[this.#page.vendorOf[this.#i]!]!;
  }

  get productType(): string {
    return this.#page.kinds[this.#page.typeOf[this.#i]!]!;
  }

  get tags(): readonly string[] {
    return this.#page.tagList(this.#page.tagListOf[this.#i]!);
  }

  get tagsLower(): readonly string[] {
    return this.#page.tagListLower(this.#page.tagListOf[this.#i]!);
  }

  get listable(): boolean {
    return this.#page.listable[this.#i] === 1;
  }

  get inStock(): boolean {
    return this.#page.inStock[this.#i] === 1;
  }

  get json(): ProductJson {
    return this.#page.json(this.#i);
  }

  get storedLength(): number {
    return this.#page.storedLength(this.#i);
  }

  get sharedText(): SharedText {
    return this.#page.sharedText;
  }

  /** Read from the answer bytes: kept as a string it was about 70 bytes a product, for a rare admin read. */
  get image(): string | null {
    return mainImage(this.json);
  }

  get variantCount(): number {
    return this.#page.variantEnds[this.#i]! - this.#first;
  }

  get variants(): readonly IndexedVariant[] {
    const { variants, stock } = this.#page;
    const first = this.#first;
    const out: IndexedVariant[] = new Array(this.variantCount);
    for (let i = 0, v = first; i < out.length; i++, v++)
      out[i] = { id: variants[2 * v]!, price: variants[2 * v + 1]!, inStock: stock[v] === 1 };
    return out;
  }

  get #first(): number {
    return this.#i === 0 ? 0 : this.#page.variantEnds[this.#i - 1]!;
  }
}
