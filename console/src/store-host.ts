/**
 * The store's address as the platform connection takes it (`acme.myshopify.com`), from what a
 * merchant pastes: the address bar's `https://acme.myshopify.com/admin` as much as the bare name.
 */
export function storeHostOf(typed: string): string {
  const text = typed.trim().toLowerCase();
  const host = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').split(/[/?#]/, 1)[0] ?? '';
  return host.replace(/\.$/, '');
}
