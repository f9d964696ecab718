import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PostgreSQL suites each use their own schema, so files may run in parallel.
    fileParallelism: true,
    reporters: ['default'],
    // Servers the tests start run as one process unless a test asks for more (REBOUND_WORKERS defaults to the cores).
    env: { REBOUND_WORKERS: '1' },
  },
});
