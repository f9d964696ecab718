import { describe, expect, it } from 'vitest';
import { storeHostOf } from '../../console/src/store-host.js';

describe('the store address a merchant pastes', () => {
  it('is read as the host the connection takes, from an address bar or bare', () => {
    expect(storeHostOf('acme.myshopify.com')).toBe('acme.myshopify.com');
    expect(storeHostOf(' https://Acme.myshopify.com/ ')).toBe('acme.myshopify.com');
    expect(storeHostOf('https://acme.myshopify.com/admin/products?x=1')).toBe('acme.myshopify.com');
    expect(storeHostOf('acme.myshopify.com.')).toBe('acme.myshopify.com');
    // The admin's own address names the store in its path; a store's name alone is its platform address.
    expect(storeHostOf('https://admin.shopify.com/store/acme-goods/products?x=1')).toBe('acme-goods.myshopify.com');
    expect(storeHostOf('admin.shopify.com/store/acme')).toBe('acme.myshopify.com');
    expect(storeHostOf('Acme')).toBe('acme.myshopify.com');
    // What is not an address stays for the server to refuse, naming it.
    expect(storeHostOf('not a store')).toBe('not a store');
  });
});
