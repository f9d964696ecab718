import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: boolean;
    redis: boolean;
    chromium: boolean;
    haproxy: boolean;
  }
}

const PG_URL = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Checks the real servers once. Locally a missing one is skipped loudly; with CI=true it fails the run. */
export default async function setup(project: TestProject): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    project.provide('postgres', true);
  } catch (error) {
    if (process.env.CI === 'true') {
      throw new Error(`PostgreSQL is required in CI but did not answer at ${PG_URL}: ${(error as Error).message}`);
    }
    project.provide('postgres', false);
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!! PostgreSQL not reachable at ${PG_URL}\n` +
        '!! SKIPPING every PostgreSQL suite: storage and HTTP tests run on SQLite only.\n' +
        `!! Set DATABASE_URL_PG or start PostgreSQL to run them.\n${line}\n`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  await checkRedis(project);
  checkChromium(project);
  checkHaproxy(project);
}

const HAPROXY_PATH = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/** The multi-node routing test runs the shipped proxy configuration in Debian's HAProxy. */
function checkHaproxy(project: TestProject): void {
  if (existsSync(HAPROXY_PATH)) {
    project.provide('haproxy', true);
    return;
  }
  if (process.env.CI === 'true')
    throw new Error(`HAProxy is required in CI but ${HAPROXY_PATH} is missing (apt-get install -y haproxy).`);
  project.provide('haproxy', false);
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!! HAProxy not found at ${HAPROXY_PATH}\n` +
      '!! SKIPPING the multi-node routing test (deploy/haproxy.cfg).\n' +
      `!! Install it with: apt-get install -y haproxy\n${line}\n`,
  );
}

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The browser suites need Debian's Chromium and a build of the console and widget from the current sources. */
function checkChromium(project: TestProject): void {
  if (!existsSync(CHROMIUM_PATH)) {
    if (process.env.CI === 'true')
      throw new Error(`Chromium is required in CI but ${CHROMIUM_PATH} is missing (apt-get install -y chromium).`);
    project.provide('chromium', false);
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!! Chromium not found at ${CHROMIUM_PATH}\n` +
        '!! SKIPPING the browser suites (console and widget).\n' +
        `!! Install it with: apt-get install -y chromium\n${line}\n`,
    );
    return;
  }
  execFileSync('npm', ['run', 'build:web', '--silent'], { stdio: 'inherit' });
  project.provide('chromium', true);
}

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function checkRedis(project: TestProject): Promise<void> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
    project.provide('redis', true);
  } catch (error) {
    if (process.env.CI === 'true')
      throw new Error(`Redis is required in CI but did not answer at ${REDIS_URL}: ${(error as Error).message}`);
    project.provide('redis', false);
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!! Redis not reachable at ${REDIS_URL}\n` +
        `!! SKIPPING the Redis cache suites and the two-node test.\n${line}\n`,
    );
  } finally {
    redis.disconnect();
  }
}
