/**
 * The store's address as the platform connection takes it (`acme.myshopify.com`), from what a
 * merchant pastes: the address bar's `https://acme.myshopify.com/admin` as much as the bare name,
 * and the admin's own address, `https://admin.shopify.com/store/acme`, which names the store in its path.
 */
export function storeHostOf(typed: string): string {
  const text = typed.trim().toLowerCase();
  const address = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const admin = /^admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)(?:[/?#]|$)/.exec(address);
  if (admin) return `${admin[1]}.myshopify.com`;
  const host = (address.split(/[/?#]/, 1)[0] ?? '').replace(/\.$/, '');
  // A store's name alone (`acme`): the platform's address of it.
  return /^[a-z0-9][a-z0-9-]*$/.test(host) ? `${host}.myshopify.com` : host;
}
