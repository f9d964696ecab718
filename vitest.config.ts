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
  },
});
