import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';

/** SQLite only: PostgreSQL has no WAL file of ours to checkpoint. */
describe('SQLite checkpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-checkpoints-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the WAL into the database file on another thread, with no commit doing it', async () => {
    const file = join(dir, 'db.sqlite');
    const store = await openStore(`sqlite:${file}`);
    try {
      await store.migrate();
      // The migrations write far fewer than the 1,000 pages that make a commit checkpoint by itself.
      const reader = new SQLite(file, { readonly: true });
      const pages = Number(reader.pragma('page_count', { simple: true }));
      const pageSize = Number(reader.pragma('page_size', { simple: true }));
      reader.close();
      expect(pages).toBeLessThan(1000);
      const deadline = Date.now() + 20_000;
      while (statSync(file).size < pages * pageSize && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(statSync(file).size).toBeGreaterThanOrEqual(pages * pageSize);
    } finally {
      await store.close();
    }
  });
});
