import { hashKey, randomSecret, safeEqual } from '../domain/keys.js';
import type { KeyIndex } from '../indexes/key-index.js';
import type { SettingStore } from '../store/kysely/settings.js';

export type AdminPrincipal = { operator: true } | { operator: false; shopId: number };

const TOKEN_SETTING = 'admin_token_sha256';

/**
 * The admin API's credentials: the operator token (from configuration, or generated once and
 * kept hashed in the database) or a shop's private key, limited to that shop.
 */
export function createAdminAuth(deps: { store: SettingStore; keys: KeyIndex; configuredToken: string | null }) {
  let tokenHash: string | null = deps.configuredToken ? hashKey(deps.configuredToken) : null;

  return {
    /** Makes sure an operator token exists; returns it in plain text only when it was just generated. */
    async ensureToken(): Promise<string | null> {
      if (tokenHash) return null;
      const candidate = `rb_admin_${randomSecret(24)}`;
      const stored = await deps.store.putSettingIfAbsent(TOKEN_SETTING, hashKey(candidate));
      tokenHash = stored;
      return stored === hashKey(candidate) ? candidate : null;
    },

    /**
     * Takes back a token ensureToken generated when the start that generated it failed before
     * showing it: the next start generates and shows another.
     */
    async forgetUnshown(token: string): Promise<void> {
      await deps.store.deleteSettingIf(TOKEN_SETTING, hashKey(token));
      if (!deps.configuredToken) tokenHash = null;
    },

    verify(token: string): AdminPrincipal | null {
      if (tokenHash && safeEqual(hashKey(token), tokenHash)) return { operator: true };
      const owner = deps.keys.lookup(token);
      if (owner?.kind === 'private') return { operator: false, shopId: owner.shopId };
      return null;
    },
  };
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;
