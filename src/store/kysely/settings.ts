import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Installation-wide settings by key (such as the admin token's hash), not any shop's. */
export interface SettingStore {
  getSetting(key: string): Promise<string | null>;
  /** Stores the value unless the key exists; returns what is stored (first writer wins across nodes). */
  putSettingIfAbsent(key: string, value: string): Promise<string>;
  putSetting(key: string, value: string): Promise<void>;
  /** Deletes the key if it still holds this value (another node may have replaced it). */
  deleteSettingIf(key: string, value: string): Promise<void>;
}

export interface SettingTables {
  settings: { key: string; value: string };
}

export function settingMethods(db: Kysely<Database>): SettingStore {
  return {
    async getSetting(key) {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value ?? null;
    },
    async putSettingIfAbsent(key, value) {
      await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return row.value;
    },
    async putSetting(key, value) {
      await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    },
    async deleteSettingIf(key, value) {
      await db.deleteFrom('settings').where('key', '=', key).where('value', '=', value).execute();
    },
  };
}
