import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import type { BuildResult } from '../../src/jobs/model-worker.js';
import { ModelIndex } from '../../src/indexes/model-index.js';

/** A logger that keeps the messages it is given at warn. */
function warnings(): { log: Logger; seen: string[] } {
  const seen: string[] = [];
  const log = { warn: (_fields: unknown, message: string) => seen.push(message), info: () => undefined } as unknown as Logger;
  return { log, seen };
}

/** A builder whose builds the test ends by hand, as a worker that fails or is terminated would. */
function controlledBuilder() {
  const pending: ((error: Error) => void)[] = [];
  const builder = (_shopId: number, _stamp: string | null) => new Promise<BuildResult>((_resolve, reject) => pending.push(reject));
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
