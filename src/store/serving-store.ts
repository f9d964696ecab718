/** A product row as a load reads it: its stored answer bytes and fields, or nulls when none are stored. */
export interface ServedProduct {
  id: number;
  /** null when no serving row was written (the product predates them). */
  version: number | null;
  body: Buffer | null;
  fields: string | null;
}

/** The ready-to-serve parts of products (§23): what a shop's load reads instead of documents. */
export interface ServingStore {
  /** Every product of a shop in id order (a page of it with afterId/limit), with its stored serving row if any. */
  listServedProducts(
    shopId: number,
    options: { afterId?: number; limit?: number; ids?: number[] },
  ): Promise<ServedProduct[]>;
}
