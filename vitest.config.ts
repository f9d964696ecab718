import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Limits catch a hang, not slowness: tests wait on conditions, and on a loaded two-core machine a
    // test that starts server processes (tsx compiles on start) can take a minute without anything wrong.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits 1 s by default: too short for background work on a busy machine.
    expect: { poll: { timeout: 30_000 } },
    // PostgreSQL suites each use their own schema, so files may run in parallel.
    fileParallelism: true,
    reporters: ['default'],
    // Servers the tests start run as one process unless a test asks for more (REBOUND_WORKERS defaults to the cores).
    env: { REBOUND_WORKERS: '1' },
  },
});
