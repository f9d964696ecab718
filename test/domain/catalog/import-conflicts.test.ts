import { describe, expect, it } from 'vitest';
import { type CurrentOwners, firstImportConflict } from '../../../src/domain/catalog/import-conflicts.js';
import { product } from '../../helpers/fixtures.js';

/** product(id) has the handle product-<id> and the variants <id>1 and <id>2. */
const none: CurrentOwners = { handles: new Map(), variants: new Map() };
const owners = (handles: [string, number][], variants: [number, number][]): CurrentOwners => ({
  handles: new Map(handles),
  variants: new Map(variants),
});

describe('firstImportConflict', () => {
  it('finds nothing in an import of distinct products over an empty shop, nor when re-importing them', () => {
    const products = [product(1), product(2)];
    expect(firstImportConflict(products, none)).toBeNull();
    const stored = owners(
      [
        ['product-1', 1],
        ['product-2', 2],
      ],
      [
        [11, 1],
        [12, 1],
        [21, 2],
      ],
    );
    expect(firstImportConflict(products, stored)).toBeNull();
  });

  it('names the row and field of a handle or variant held twice within the import', () => {
    expect(firstImportConflict([product(1), product(2, { handle: 'product-1' })], none)).toEqual({
      index: 1,
      path: 'handle',
      message: '"product-1" is used by product 1 in the same request',
    });
    const taking = product(2, {
      variants: [
        { id: 30, price: '1.00' },
        { id: 11, price: '1.00' },
      ],
    });
    expect(firstImportConflict([product(1), taking], none)).toEqual({
      index: 1,
      path: 'variants[1].id',
      message: 'variant 11 also belongs to product 1 in the same request',
    });
  });

  it('refuses what a product outside the import holds, and lets a product in the import give it up', () => {
    const stored = owners([['product-1', 1]], [[11, 1]]);
    const handle = product(5, { handle: 'product-1' });
    expect(firstImportConflict([handle], stored)).toMatchObject({ index: 0, path: 'handle' });
    const variant = product(5, { variants: [{ id: 11, price: '1.00' }] });
    expect(firstImportConflict([variant], stored)).toEqual({
      index: 0,
      path: 'variants[0].id',
      message: 'variant 11 is already a variant of product 1',
    });
    // Product 1 comes in the same import with another handle and without variant 11.
    const givingUp = product(1, { handle: 'renamed', variants: [{ id: 12, price: '1.00' }] });
    expect(firstImportConflict([givingUp, handle], stored)).toBeNull();
    expect(firstImportConflict([variant, givingUp], stored)).toBeNull();
  });
});
