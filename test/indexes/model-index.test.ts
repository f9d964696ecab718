import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/domain/models/build.js';
import { buildContentModel } from '../../src/domain/models/content.js';
import type { BuildResult } from '../../src/jobs/model-worker.js';
import { ModelIndex } from '../../src/indexes/model-index.js';

/** A logger that keeps the messages it is given at warn. */
function warnings(): { log: Logger; seen: string[] } {
  const seen: string[] = [];
  const log = {
    warn: (_fields: unknown, message: string) => seen.push(message),
    info: () => undefined,
  } as unknown as Logger;
  return { log, seen };
}

/** A builder whose builds the test ends by hand, as a worker that fails or is terminated would. */
function controlledBuilder() {
  const pending: ((error: Error) => void)[] = [];
  const builder = (_shopId: number, _stamp: string | null) =>
    new Promise<BuildResult>((_resolve, reject) => pending.push(reject));
  return { builder, pending };
}

describe('ModelIndex', () => {
  it('reports a failed build, keeps quiet about builds ended by shutting down, and starts none after', async () => {
    const { log, seen } = warnings();
    const { builder, pending } = controlledBuilder();
    const models = new ModelIndex(builder, { intervalMs: 0, log });

    expect(models.get(1)).toBeUndefined();
    expect(pending).toHaveLength(1);
    pending.shift()!(new Error('the worker crashed'));
    await expect.poll(() => seen).toEqual(['model build failed; the previous model keeps serving']);

    expect(models.get(2)).toBeUndefined();
    expect(pending).toHaveLength(1);
    models.close();
    pending.shift()!(new Error('Terminating worker thread'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(1);

    expect(models.get(3)).toBeUndefined();
    expect(pending).toHaveLength(0);
  });
});

/** A builder that records each call and resolves when the test says, with a stand-in model. */
function recordingBuilder() {
  const calls: string[] = [];
  const finish: (() => void)[] = [];
  const content = buildContentModel([]);
  // The model's own content is another object: the test tells which one is served.
  const built = (stamp: string): BuildResult => ({
    unchanged: false,
    stamp,
    builtAt: 'now',
    ms: 1,
    model: buildModel([], []),
    content: buildContentModel([]),
  });
  const builder = (_shopId: number, _stamp: string | null, withContent: boolean) =>
    new Promise<BuildResult>((resolve) => {
      calls.push(withContent ? 'model' : 'model without content');
      finish.push(() => resolve(built(String(calls.length))));
    });
  const contentBuilder = (_shopId: number) => {
    calls.push('content');
    return Promise.resolve(content);
  };
  return { calls, finish, builder, contentBuilder, content };
}

describe('ModelIndex freshness', () => {
  it('rebuilds once after a burst of writes at any interval; a write during a build is built after it', async () => {
    const { calls, finish, builder } = recordingBuilder();
    const models = new ModelIndex(builder, { intervalMs: 3_600_000, debounceMs: 1 });
    expect(models.get(7)).toBeUndefined(); // the first read starts the first build
    finish.shift()!();
    await models.settled(7);
    calls.length = 0;
    for (let i = 0; i < 20; i++) models.changed(7);
    expect(models.pending(7)).toBe(true);
    await expect.poll(() => calls).toEqual(['model']);
    models.changed(7); // arrives while the build runs
    finish.shift()!();
    await expect.poll(() => calls).toEqual(['model', 'model']);
    finish.shift()!();
    await models.settled(7);
    expect(models.pending(7)).toBe(false);
    expect(models.stamp(7)).toBe('2'); // the build after the write during the first rebuild
    models.close();
  });

  it('stops serving a model on an erasure; one built meanwhile is dropped and the shop built afresh', async () => {
    const { calls, finish, builder } = recordingBuilder();
    const models = new ModelIndex(builder, { intervalMs: 3_600_000, debounceMs: 1 });
    models.get(7);
    finish.shift()!();
    await models.settled(7);
    expect(models.stamp(7)).toBe('1');
    models.forget(7);
    expect(models.stamp(7)).toBeUndefined(); // the lists fall back at once
    // A rebuild starts, then an erasure lands while it reads: its model is never swapped in.
    expect(models.get(7)).toBeUndefined();
    models.forget(7);
    finish.shift()!();
    await expect.poll(() => calls.length).toBe(3);
    expect(models.stamp(7)).toBeUndefined();
    finish.shift()!();
    await models.settled(7);
    expect(models.stamp(7)).toBe('3');
    models.close();
  });

  it("builds a shop's content neighbours ahead of its first model: similar_products never waits for it", async () => {
    const { calls, finish, builder, contentBuilder, content } = recordingBuilder();
    const models = new ModelIndex(builder, { intervalMs: 0, content: contentBuilder });
    expect(await models.content(3)).toBe(content);
    expect(models.get(3)).toBeUndefined();
    // The first model reuses those neighbours rather than building them twice.
    expect(calls).toEqual(['content', 'model without content']);
    finish.shift()!();
    await models.settled(3);
    expect(models.get(3)?.content).toBe(content);
    models.close();
  });
});
