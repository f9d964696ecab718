import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../src/domain/errors.js';
import type { ModelIndex } from '../../src/indexes/model-index.js';
import type { ModelPool } from '../../src/jobs/model-pool.js';
import type { SimilarResult } from '../../src/jobs/model-worker.js';
import { createModelsService, SIMILAR_AT_ONCE } from '../../src/services/models.js';

/**
 * Similarities asked of the model thread at once (the thread itself is exercised in
 * test/http/admin/models.test.ts): here a pool whose answers the test releases, to hold them in flight
 * whatever the machine's speed (over HTTP, the first could be answered before the second arrives).
 */
describe('similarities computed at once', () => {
  it('takes one a shop and SIMILAR_AT_ONCE in the node; a slot freed takes the next', async () => {
    const waiting: (() => void)[] = [];
    const pool = {
      usable: true,
      similar: () => new Promise<SimilarResult>((resolve) => waiting.push(() => resolve({} as SimilarResult))),
    } as unknown as ModelPool;
    const service = createModelsService({ pool, models: {} as ModelIndex });
    const ask = { productId: 1, similarity: 'jaccard' as const, threshold: 1, basis: 'customer' as const, limit: 5 };
    const held = Array.from({ length: SIMILAR_AT_ONCE }, (_, shop) => service.similar(shop + 1, ask));
    await expect(service.similar(1, ask)).rejects.toThrow(/one of this shop is being computed/);
    await expect(service.similar(99, ask)).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(service.similar(99, ask)).rejects.toThrow(/as many as it takes at once/);
    while (waiting.length < SIMILAR_AT_ONCE) await new Promise((r) => setImmediate(r));
    waiting.shift()!();
    await held[0];
    const next = service.similar(99, ask);
    while (waiting.length < SIMILAR_AT_ONCE) await new Promise((r) => setImmediate(r));
    for (const release of waiting.splice(0)) release();
    await expect(Promise.all([next, ...held.slice(1)])).resolves.toHaveLength(SIMILAR_AT_ONCE);
  });
});
