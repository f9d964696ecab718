import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { openStore } from '../../src/store/open.js';
import { backends } from '../helpers/backends.js';
import { migratedTo } from '../helpers/migrated-to.js';

/** Former e-mails stored before SQLite's lower() folded every letter are folded again by a migration. */
describe.each(backends())('former e-mails stored folded in ASCII only, on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('are folded whole, and the rows already folded are left as they are', async () => {
    const url = await backend.url();
    const before = await migratedTo(url, '2026_11_30_0200_customer_former_emails');
    const row = (id: number, former: string | null) => ({
      shop_id: 9,
      id,
      email: 'now@example.com',
      tags: '[]',
      updated_at: 1,
      former_emails: former,
    });
    // What SQLite's ASCII-only lower() wrote for `ZOË.ÄRGER@Example.com`, then an address already folded.
    await before.db
      .insertInto('customers')
      .values([row(1, 'zoË.Ärger@example.com\nold@example.com'), row(2, 'plain@example.com'), row(3, null)])
      .execute();
    await before.db.destroy();

    const store = await openStore(url);
    await store.close();
    const after = connect(url);
    try {
      const rows = await after.db.selectFrom('customers').select(['id', 'former_emails']).orderBy('id').execute();
      expect(rows.map((r) => [Number(r.id), r.former_emails])).toEqual([
        [1, 'zoë.ärger@example.com\nold@example.com'],
        [2, 'plain@example.com'],
        [3, null],
      ]);
    } finally {
      await after.db.destroy();
    }
  });
});
