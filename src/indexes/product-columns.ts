/** What the read model needs of a product besides its answer bytes; short keys, as a serving row stores them. */
export interface ServingFields {
  h: string; // handle
  t: string; // title
  i: string | null; // main image URL (read from the answer bytes when asked: not unpacked)
  v: string; // vendor
  p: string; // product type
  g: string[]; // tags
  l: 0 | 1; // listable
  /** Variants: id, price (Money), in stock (0/1), one triple after another. */
  vs: number[];
  /** Byte offsets of the pieces in the body (ProductJson's layout). */
  o: number[];
}

/**
 * A page's index fields as columns: product i's values at i, or in `[ends[i - 1], ends[i])` of a
 * list column. A load reads them as they are (the variants' arrays are the read model's own),
 * where parsing a page's fields as JSON made an object and three arrays a product, and their
 * numbers, only to copy them out: a quarter of what a small shop's load allocated.
 */
export interface ProductColumns {
  /** Four strings a product: handle, title, vendor, product type. */
  readonly text: string[];
  /** Every product's tags one after another. */
  readonly tags: string[];
  readonly tagEnds: Uint32Array;
  readonly listable: Uint8Array;
  /** Every product's variants: id and price, two numbers a variant. */
  readonly variants: Float64Array;
  /** In stock (1) or not, a byte a variant. */
  readonly stock: Uint8Array;
  /** Where each product's variants end, counted in variants. */
  readonly variantEnds: Uint32Array;
  /** The answer bytes' layouts (ProductJson's offsets), one product's after another. */
  readonly layouts: Uint32Array;
  readonly layoutEnds: Uint32Array;
}

/** The fields of a page's rows, as columns. */
export function columnsOf(fields: readonly ServingFields[]): ProductColumns {
  const n = fields.length;
  let tagCount = 0;
  let variantCount = 0;
  let layoutCount = 0;
  for (const f of fields) {
    tagCount += f.g.length;
    variantCount += f.vs.length / 3;
    layoutCount += f.o.length;
  }
  const c = {
    text: new Array<string>(4 * n),
    tags: new Array<string>(tagCount),
    tagEnds: new Uint32Array(n),
    listable: new Uint8Array(n),
    variants: new Float64Array(2 * variantCount),
    stock: new Uint8Array(variantCount),
    variantEnds: new Uint32Array(n),
    layouts: new Uint32Array(layoutCount),
    layoutEnds: new Uint32Array(n),
  };
  let tag = 0;
  let variant = 0;
  let layout = 0;
  for (let i = 0; i < n; i++) {
    const f = fields[i]!;
    c.text[4 * i] = f.h;
    c.text[4 * i + 1] = f.t;
    c.text[4 * i + 2] = f.v;
    c.text[4 * i + 3] = f.p;
    for (const t of f.g) c.tags[tag++] = t;
    c.tagEnds[i] = tag;
    c.listable[i] = f.l === 1 ? 1 : 0;
    for (let v = 0; v < f.vs.length; v += 3, variant++) {
      c.variants[2 * variant] = f.vs[v]!;
      c.variants[2 * variant + 1] = f.vs[v + 1]!;
      c.stock[variant] = f.vs[v + 2] === 1 ? 1 : 0;
    }
    c.variantEnds[i] = variant;
    c.layouts.set(f.o, layout);
    layout += f.o.length;
    c.layoutEnds[i] = layout;
  }
  return c;
}

/** Pages' columns one after another, as one page's. */
export function joinColumns(pages: readonly ProductColumns[]): ProductColumns {
  if (pages.length === 1) return pages[0]!;
  return {
    text: pages.flatMap((p) => p.text),
    tags: pages.flatMap((p) => p.tags),
    tagEnds: joinEnds(pages.map((p) => p.tagEnds)),
    listable: joinArrays(
      Uint8Array,
      pages.map((p) => p.listable),
    ),
    variants: joinArrays(
      Float64Array,
      pages.map((p) => p.variants),
    ),
    stock: joinArrays(
      Uint8Array,
      pages.map((p) => p.stock),
    ),
    variantEnds: joinEnds(pages.map((p) => p.variantEnds)),
    layouts: joinArrays(
      Uint32Array,
      pages.map((p) => p.layouts),
    ),
    layoutEnds: joinEnds(pages.map((p) => p.layoutEnds)),
  };
}

type Typed = Uint8Array | Uint32Array | Float64Array;

/** Typed arrays one after another, as one. */
export function joinArrays<T extends Typed>(Kind: { new (length: number): T }, arrays: readonly T[]): T {
  const out = new Kind(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const array of arrays) {
    out.set(array, at);
    at += array.length;
  }
  return out;
}

/** Each page's ends (where its items end) moved past the previous pages' last. */
export function joinEnds(ends: readonly Uint32Array[]): Uint32Array {
  const out = joinArrays(Uint32Array, ends);
  let at = 0;
  let base = 0;
  for (const page of ends) {
    for (let i = 0; i < page.length; i++) out[at + i] = page[i]! + base;
    at += page.length;
    base = page.length > 0 ? page[page.length - 1]! + base : base;
  }
  return out;
}

/** The columns that are typed arrays (the others are lists of strings). */
const TYPED = ['tagEnds', 'listable', 'variants', 'stock', 'variantEnds', 'layouts', 'layoutEnds'] as const;

/** The typed arrays, each copied out of the buffer it may view (a decoded snapshot's, which it would keep). */
export function ownedColumns(c: ProductColumns): ProductColumns {
  return { ...c, ...Object.fromEntries(TYPED.map((name) => [name, c[name].slice()])) };
}

/** The typed arrays' buffers, to move to another thread rather than copy. */
export function columnBuffers(c: ProductColumns): ArrayBuffer[] {
  return TYPED.map((name) => c[name].buffer as ArrayBuffer);
}

/** At least the bytes V8's serialization makes of the columns: strings at two bytes a character and a header. */
export function columnsBytes(c: ProductColumns): number {
  let bytes = 0;
  for (const s of c.text) bytes += 8 + 2 * s.length;
  for (const s of c.tags) bytes += 8 + 2 * s.length;
  return TYPED.reduce((n, name) => n + 16 + c[name].byteLength, bytes);
}
