import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withStartupLock } from '../../src/store/startup-lock.js';
import { backends } from '../helpers/backends.js';

describe.each(backends())('the start-up lock ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  it('makes a second start wait until the first is done', async () => {
    const url = await backend.url();
    const order: string[] = [];
    let release: () => void = () => undefined;
    let holding: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const first = withStartupLock(url, async () => {
      order.push('first in');
      holding();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      order.push('first out');
    });
    await held;
    let waiting: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const second = withStartupLock(
      url,
      async () => {
        order.push('second in');
      },
      () => waiting(),
    );
    await waited;
    expect(order).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });
});

describe('the start-up lock on a new SQLite database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the folder the database will be in', async () => {
    expect(await withStartupLock(`sqlite:${join(dir, 'not', 'yet', 'rebound.db')}`, async () => 'done')).toBe('done');
  });
});
