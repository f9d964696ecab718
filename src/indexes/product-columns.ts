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
 * numbers, only to copy them out: a quarter of what a small shop's load allocated. Vendors, product
 * types, tags and lists of tags are each held once a page, as an index into a table, when the
 * page is packed: a load from a snapshot finds them shared already, where it deserialized every
 * product's copy and looked each up (a tenth of such a load), then a string of each list's every
 * tag (half the strings of a snapshot, a quarter of the time V8 took to deserialize it).
 */
export interface ProductColumns {
  /**
   * Two strings a product, handle and title, as UTF-8 one after another (string k ends at
   * `textEnds[k]`): decoded when first read, where a string each was most of what V8 made of a
   * snapshot, and most are never read (answers are the products' bytes).
   */
  readonly text: Uint8Array;
  readonly textEnds: Uint32Array;
  /** The page's distinct vendors, product types and tags, and each product's vendor and type. */
  readonly kinds: string[];
  readonly vendorOf: Uint32Array;
  readonly typeOf: Uint32Array;
  /**
   * The page's distinct lists of tags, one after another, each tag as its place in `kinds` (list k
   * ends at `tagListEnds[k]`), and each product's list.
   */
  readonly tagKinds: Uint32Array;
  readonly tagListEnds: Uint32Array;
  readonly tagListOf: Uint32Array;
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

/**
 * Lists of tags of this many or fewer are held once a page, however many products carry them (a
 * shop's tags as its products share them: `sale, summer`). A longer list is held for each product.
 */
const SHARED_LIST_TAGS = 32;

/** Distinct strings and lists of strings, each given the next index on its first sight. */
class Tables {
  readonly kinds: string[] = [];
  readonly tagKinds: number[] = [];
  readonly tagListEnds: number[] = [];
  private readonly kindIndex = new Map<string, number>();
  private readonly listIndex = new Map<string, number>();

  kind(s: string): number {
    let k = this.kindIndex.get(s);
    if (k === undefined) {
      k = this.kinds.push(s) - 1;
      this.kindIndex.set(s, k);
    }
    return k;
  }

  list(tags: readonly string[]): number {
    // A long list is rarely another product's too: its key would be a string of every tag, made and hashed.
    const key = tags.length <= SHARED_LIST_TAGS ? JSON.stringify(tags) : undefined;
    let k = key === undefined ? undefined : this.listIndex.get(key);
    if (k === undefined) {
      for (const tag of tags) this.tagKinds.push(this.kind(tag));
      k = this.tagListEnds.push(this.tagKinds.length) - 1;
      if (key !== undefined) this.listIndex.set(key, k);
    }
    return k;
  }
}

/** The fields of a page's rows, as columns. */
export function columnsOf(fields: readonly ServingFields[]): ProductColumns {
  const n = fields.length;
  let variantCount = 0;
  let layoutCount = 0;
  for (const f of fields) {
    variantCount += f.vs.length / 3;
    layoutCount += f.o.length;
  }
  const tables = new Tables();
  const c = {
    ...utf8(fields.flatMap((f) => [f.h, f.t])),
    vendorOf: new Uint32Array(n),
    typeOf: new Uint32Array(n),
    tagListOf: new Uint32Array(n),
    listable: new Uint8Array(n),
    variants: new Float64Array(2 * variantCount),
    stock: new Uint8Array(variantCount),
    variantEnds: new Uint32Array(n),
    layouts: new Uint32Array(layoutCount),
    layoutEnds: new Uint32Array(n),
  };
  let variant = 0;
  let layout = 0;
  for (let i = 0; i < n; i++) {
    const f = fields[i]!;
    c.vendorOf[i] = tables.kind(f.v);
    c.typeOf[i] = tables.kind(f.p);
    c.tagListOf[i] = tables.list(f.g);
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
  return { ...c, ...tablesOf(tables) };
}

/** Strings as UTF-8 one after another, and where each ends. */
function utf8(strings: readonly string[]): { text: Uint8Array; textEnds: Uint32Array } {
  const textEnds = new Uint32Array(strings.length);
  let bytes = 0;
  for (let k = 0; k < strings.length; k++) {
    bytes += Buffer.byteLength(strings[k]!);
    textEnds[k] = bytes;
  }
  const text = Buffer.allocUnsafeSlow(bytes);
  for (let k = 0; k < strings.length; k++) text.write(strings[k]!, k === 0 ? 0 : textEnds[k - 1]!);
  return { text: new Uint8Array(text.buffer, 0, bytes), textEnds };
}

/** String `k` of a page's text (a product's handle at 2i, its title at 2i + 1). */
export function textAt(c: Pick<ProductColumns, 'text' | 'textEnds'>, k: number): string {
  const start = k === 0 ? 0 : c.textEnds[k - 1]!;
  return Buffer.from(c.text.buffer, c.text.byteOffset + start, c.textEnds[k]! - start).toString('utf8');
}

const tablesOf = (t: Tables) => ({
  kinds: t.kinds,
  tagKinds: Uint32Array.from(t.tagKinds),
  tagListEnds: Uint32Array.from(t.tagListEnds),
});

/** A page's list of tags `k`: the strings of `kinds`, not copies. */
export function tagListAt(c: Pick<ProductColumns, 'kinds' | 'tagKinds' | 'tagListEnds'>, k: number): string[] {
  const start = k === 0 ? 0 : c.tagListEnds[k - 1]!;
  const list = new Array<string>(c.tagListEnds[k]! - start);
  for (let t = 0; t < list.length; t++) list[t] = c.kinds[c.tagKinds[start + t]!]!;
  return list;
}

/** Pages' columns one after another, as one page's (their tables merged, in the order of first sight). */
export function joinColumns(pages: readonly ProductColumns[]): ProductColumns {
  if (pages.length === 1) return pages[0]!;
  const tables = new Tables();
  // Each page's indexes moved into the joined tables, then every typed column joined alike.
  const remapped = pages.map((p) => {
    const kinds = p.kinds.map((kind) => tables.kind(kind));
    const lists = Array.from(p.tagListEnds, (_, k) => tables.list(tagListAt(p, k)));
    return {
      ...p,
      vendorOf: p.vendorOf.map((k) => kinds[k]!),
      typeOf: p.typeOf.map((k) => kinds[k]!),
      tagListOf: p.tagListOf.map((k) => lists[k]!),
    };
  });
  const join = <T extends Typed>(Kind: { new (length: number): T }, column: (p: ProductColumns) => T) =>
    joinArrays(Kind, remapped.map(column));
  return {
    text: joinArrays(
      Uint8Array,
      pages.map((p) => p.text),
    ),
    textEnds: joinEnds(pages.map((p) => p.textEnds)),
    ...tablesOf(tables),
    vendorOf: join(Uint32Array, (p) => p.vendorOf),
    typeOf: join(Uint32Array, (p) => p.typeOf),
    tagListOf: join(Uint32Array, (p) => p.tagListOf),
    listable: join(Uint8Array, (p) => p.listable),
    variants: join(Float64Array, (p) => p.variants),
    stock: join(Uint8Array, (p) => p.stock),
    variantEnds: joinEnds(pages.map((p) => p.variantEnds)),
    layouts: join(Uint32Array, (p) => p.layouts),
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

/** The columns that are typed arrays (the other is the table of strings). */
const TYPED = [
  'text',
  'textEnds',
  'vendorOf',
  'typeOf',
  'tagKinds',
  'tagListEnds',
  'tagListOf',
  'listable',
  'variants',
  'stock',
  'variantEnds',
  'layouts',
  'layoutEnds',
] as const;

/** The typed arrays, each copied out of the buffer it may view (a decoded snapshot's, which it would keep). */
export function ownedColumns(c: ProductColumns, copy = <T extends Typed>(array: T): T => array.slice() as T) {
  return { ...c, ...Object.fromEntries(TYPED.map((name) => [name, copy(c[name])])) } as ProductColumns;
}

/** The columns' typed arrays. */
export function columnArrays(c: ProductColumns): Typed[] {
  return TYPED.map((name) => c[name]);
}

/** The typed arrays' buffers, to move to another thread rather than copy. */
export function columnBuffers(c: ProductColumns): ArrayBuffer[] {
  return TYPED.map((name) => c[name].buffer as ArrayBuffer);
}

/** At least the bytes V8's serialization makes of the columns: strings at two bytes a character and a header. */
export function columnsBytes(c: ProductColumns): number {
  let bytes = 0;
  for (const s of c.kinds) bytes += 8 + 2 * s.length;
  return TYPED.reduce((n, name) => n + 16 + c[name].byteLength, bytes);
}
