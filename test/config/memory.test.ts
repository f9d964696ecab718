import { describe, expect, it } from 'vitest';
import {
  HEAP_GROWING_PERCENT,
  operatorFlags,
  runtimeHeapFlags,
  SEMI_SPACE_MB,
  MMAP_THRESHOLD_BYTES,
  workerEnv,
  workerExecArgv,
} from '../../src/config/memory.js';

describe('V8 heap settings from the memory budget', () => {
  it("gives the cluster's workers the young generation of their budget, after the primary's own flags", () => {
    expect(workerExecArgv(160, ['--enable-source-maps'], [])).toEqual([
      '--enable-source-maps',
      '--max-semi-space-size=4',
    ]);
    expect(workerExecArgv(512, [], [])).toEqual([`--max-semi-space-size=${SEMI_SPACE_MB}`]);
    expect(SEMI_SPACE_MB).toBe(4); // as package.json's start script and the Dockerfile give it
  });

  it("leaves the operator's own young generation, and a large budget, to V8", () => {
    expect(workerExecArgv(160, ['--max-semi-space-size=8'])).toEqual(['--max-semi-space-size=8']);
    expect(workerExecArgv(160, [], ['--max_semi_space_size=4'])).toEqual([]); // from NODE_OPTIONS
    expect(workerExecArgv(160, [], ['--max-heap-size=300'])).toEqual([]);
    expect(workerExecArgv(4096, [], [])).toEqual([]);
  });

  it("gives the cluster's workers the allocator's mapping threshold, unless the operator set one", () => {
    expect(workerEnv(160, {})).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(MMAP_THRESHOLD_BYTES).toBe(131_072); // as the Dockerfile gives it
    expect(workerEnv(160, { MALLOC_MMAP_THRESHOLD_: '65536' })).toEqual({});
    expect(workerEnv(4096, {})).toEqual({});
  });

  it('collects the old generation once it has grown by half, unless the operator said otherwise', () => {
    expect(HEAP_GROWING_PERCENT).toBe(50);
    expect(runtimeHeapFlags(160)).toEqual(['--heap-growing-percent=50']);
    expect(runtimeHeapFlags(160, ['--heap-growing-percent=100'])).toEqual([]);
    expect(runtimeHeapFlags(4096)).toEqual([]);
  });

  it("reads the operator's flags from the command line and NODE_OPTIONS", () => {
    expect(operatorFlags(['--inspect'], { NODE_OPTIONS: ' --max-semi-space-size=4  --trace-gc ' })).toEqual([
      '--inspect',
      '--max-semi-space-size=4',
      '--trace-gc',
    ]);
    expect(operatorFlags([], {})).toEqual([]);
  });
});
