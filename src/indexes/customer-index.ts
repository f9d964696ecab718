import type { Customer } from '../domain/catalog/collection.js';
import { sortedIndexOf } from '../domain/models/build.js';
import { inOrderOf } from '../domain/sorted.js';

const NO_TAGS: readonly string[] = Object.freeze([]);

/** A customer index's arrays (below), as a load snapshot keeps them. */
export interface CustomerColumns {
  readonly ids: Float64Array;
  readonly emails: string;
  readonly ends: Uint32Array;
  readonly noEmail: Uint8Array;
  /** Positions in `ids` of the customers who have tags, ascending. */
  readonly tagged: Uint32Array;
  /** For each of `tagged`, its list in `tagLists`. */
  readonly tagListOf: Uint32Array;
  /** Each distinct list of tags, once: a shop's customers share a few (`newsletter`, `vip`). */
  readonly tagLists: readonly (readonly string[])[];
}

/**
 * A shop's customers as the read model keeps them: ids in one typed array, e-mails in one string,
 * tags only for the customers who have some. A Map of customer objects was the largest part of a
 * resident shop after its products (about 190 bytes a customer: the object, its boxed id twice,
 * its e-mail, an empty tags array, the Map's entry); this is about 40. Tags are kept as each
 * distinct list once and two columns: an array and a copy of its strings per tagged customer were
 * more than half of what a load spent deserializing its snapshot (130 of 234 µs for 300 customers,
 * half of them tagged), and most of the customers' heap. Serving reads a customer's tags and
 * whether it exists; `get` makes the customer's object on each call.
 */
export class CustomerIndex implements ReadonlyMap<number, Customer> {
  /** Customer ids, ascending. */
  private readonly ids: Float64Array;
  /** Every e-mail one after another; customer i's is `emails.slice(ends[i - 1], ends[i])`, null when `noEmail`. */
  private readonly emails: string;
  private readonly ends: Uint32Array;
  private readonly noEmail: Uint8Array;
  private readonly tagged: Uint32Array;
  private readonly tagListOf: Uint32Array;
  private readonly tagLists: readonly (readonly string[])[];

  /** The index of these columns as they are: a load snapshot's (`columns`), not copied. */
  constructor(columns: CustomerColumns) {
    this.ids = columns.ids;
    this.emails = columns.emails;
    this.ends = columns.ends;
    this.noEmail = columns.noEmail;
    this.tagged = columns.tagged;
    this.tagListOf = columns.tagListOf;
    this.tagLists = columns.tagLists;
  }

  /** The index of customers as the store lists them. */
  static of(customers: readonly Customer[]): CustomerIndex {
    // The store lists them in id order: checked, not sorted again. Loops, not `Float64Array.from`
    // with a function or `forEach`: this runs on every shop's load, for every customer.
    const sorted = inOrderOf(customers, (a, b) => a.id - b.id);
    const columns = {
      ids: new Float64Array(sorted.length),
      ends: new Uint32Array(sorted.length),
      noEmail: new Uint8Array(sorted.length),
    };
    const emails: string[] = [];
    const tagged: number[] = [];
    const tagListOf: number[] = [];
    const tagLists: (readonly string[])[] = [];
    const listIndex = new Map<string, number>();
    let length = 0;
    for (let i = 0; i < sorted.length; i++) {
      const customer = sorted[i]!;
      columns.ids[i] = customer.id;
      if (customer.email === null) columns.noEmail[i] = 1;
      else {
        emails.push(customer.email);
        length += customer.email.length;
      }
      columns.ends[i] = length;
      if (customer.tags.length === 0) continue;
      // JSON names a list of any strings unambiguously (a joined list would not: a tag may hold the separator).
      const key = JSON.stringify(customer.tags);
      let list = listIndex.get(key);
      if (list === undefined) {
        list = tagLists.push(Object.freeze([...customer.tags])) - 1;
        listIndex.set(key, list);
      }
      tagged.push(i);
      tagListOf.push(list);
    }
    return new CustomerIndex({
      ...columns,
      emails: emails.join(''),
      tagged: Uint32Array.from(tagged),
      tagListOf: Uint32Array.from(tagListOf),
      tagLists,
    });
  }

  /** The index's arrays, for a load snapshot to keep as they are. */
  columns(): CustomerColumns {
    const { ids, emails, ends, noEmail, tagged, tagListOf, tagLists } = this;
    return { ids, emails, ends, noEmail, tagged, tagListOf, tagLists };
  }

  get size(): number {
    return this.ids.length;
  }

  /** Bytes this index holds (the memory budget's estimate). */
  get bytes(): number {
    // 48 a customer measured, besides the e-mails (the arrays, and the boxed ids of the sort and the Map's keys).
    let bytes = 200 + 48 * this.ids.length + this.emails.length + 8 * this.tagged.length;
    for (const tags of this.tagLists) bytes += 80 + tags.reduce((n, t) => n + t.length + 24, 0);
    return bytes;
  }

  private indexOf(id: number): number {
    return sortedIndexOf(this.ids, id);
  }

  /** The tags of the customer at position `i` (the kept list, shared by every call). */
  private tagsAt(i: number): readonly string[] {
    const at = sortedIndexOf(this.tagged, i);
    return at < 0 ? NO_TAGS : this.tagLists[this.tagListOf[at]!]!;
  }

  private at(i: number): Customer {
    return {
      id: this.ids[i]!,
      email: this.noEmail[i] === 1 ? null : this.emails.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]),
      // A copy: the customer is the caller's, and the kept tags are shared by every call.
      tags: [...this.tagsAt(i)],
    };
  }

  has(id: number): boolean {
    return this.indexOf(id) >= 0;
  }

  get(id: number): Customer | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.at(i);
  }

  /** A customer's tags without making the customer (undefined for one not in the shop). */
  tagsOf(id: number): readonly string[] | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.tagsAt(i);
  }

  *entries(): MapIterator<[number, Customer]> {
    for (let i = 0; i < this.ids.length; i++) yield [this.ids[i]!, this.at(i)];
  }

  *keys(): MapIterator<number> {
    yield* this.ids;
  }

  *values(): MapIterator<Customer> {
    for (let i = 0; i < this.ids.length; i++) yield this.at(i);
  }

  [Symbol.iterator](): MapIterator<[number, Customer]> {
    return this.entries();
  }

  forEach(callback: (value: Customer, key: number, map: ReadonlyMap<number, Customer>) => void, self?: unknown): void {
    for (const [id, customer] of this.entries()) callback.call(self, customer, id, this);
  }
}
