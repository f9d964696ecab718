import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { backends } from '../helpers/backends.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';

const postgres = backends().filter((b) => b.name === 'postgres');

/**
 * A PostgreSQL connection dropped while a transaction holds it between two statements (an outage,
 * a server restart): the transaction fails, the process goes on. The pool gives checked-out
 * connections no 'error' listener, and that event alone ended the process.
 */
describe.skipIf(postgres.length === 0)('a connection dropped in the middle of a transaction', () => {
  const backend = postgres[0]!;
  afterAll(() => backend?.cleanup());

  it('fails the transaction, and the pool serves the next one on a new connection', async () => {
    const url = new URL(await backend.url());
    const proxy = await tcpProxy(Number(url.port || 5432), url.hostname);
    url.host = `127.0.0.1:${proxy.port}`;
    const { db } = connect(url.toString());
    try {
      const transaction = db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await proxy.cut();
        await proxy.restore();
        // The client sees its socket end between the statements (a shorter wait only weakens the test).
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 2`.execute(trx);
      });
      await expect(transaction).rejects.toThrow();
      const next = await sql<{ n: number }>`select 3 as n`.execute(db);
      expect(next.rows[0]!.n).toBe(3);
    } finally {
      await db.destroy();
      proxy.close();
    }
  });
});
