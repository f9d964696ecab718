import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';

/** The migrations the server's build knows, by name. */
function knownMigrations(serverDir: string): Set<string> {
  const dir = join(serverDir, 'dist/src/store/migrations');
  return new Set(
    readdirSync(dir)
      .filter((f) => /^\d{4}_.*\.js$/.test(f))
      .map((f) => f.slice(0, -3)),
  );
}

/**
 * The prepared file as an earlier build can serve it: a copy without the records of migrations it
 * does not know (it refuses a database migrated past it), and without the stored serving rows if
 * it predates them. Tables it does not know are otherwise left: it never reads them.
 */
function copyForEarlierVersion(file: string, known: Set<string>): string {
  const copy = `${file}.earlier`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
  const source = new SQLite(file);
  source.pragma('wal_checkpoint(TRUNCATE)');
  source.close();
  copyFileSync(file, copy);
  const db = new SQLite(copy);
  if (!known.has('2026_11_25_0400_product_serving')) db.exec('drop table if exists product_serving');
  const recorded = db.prepare('select name from kysely_migration').pluck().all() as string[];
  const forget = db.prepare('delete from kysely_migration where name = ?');
  for (const name of recorded) if (!known.has(name)) forget.run(name);
  db.close();
  return copy;
}

/**
 * The database file a server build reads the prepared file as: the file itself when the build
 * knows every migration of this checkout, else a copy of its own (`copyForEarlierVersion`).
 */
export function databaseFor(serverDir: string, file: string): string {
  const known = knownMigrations(serverDir);
  const current = [...knownMigrations('.')].every((name) => known.has(name));
  return current ? file : copyForEarlierVersion(file, known);
}
