import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';

export const PG_URL = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL answered the global setup (in CI a missing server fails the run instead). */
export const pgAvailable = (): boolean => inject('postgres');

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** A fresh, migrated, empty database: a temp SQLite file or its own PostgreSQL schema. */
  url(): Promise<string>;
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dirs: string[] = [];
  let current = '';
  return {
    name: 'sqlite',
    async url() {
      const dir = mkdtempSync(join(tmpdir(), 'rebound-test-'));
      dirs.push(dir);
      current = `sqlite:${join(dir, 'test.db')}`;
      return current;
    },
    async open() {
      return openStore(current || (await this.url()));
    },
    async cleanup() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBackend(): Backend {
  const schemas: string[] = [];
  let current = '';
  return {
    name: 'postgres',
    async url() {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
      schemas.push(schema);
      current = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
      return current;
    },
    async open() {
      return openStore(current || (await this.url()));
    },
    async cleanup() {
      if (schemas.length === 0) return;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/** The storage backends every storage test runs against. */
export function backends(): Backend[] {
  return pgAvailable() ? [sqliteBackend(), postgresBackend()] : [sqliteBackend()];
}
