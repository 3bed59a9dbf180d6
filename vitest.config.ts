import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'main/**/*.test.ts', 'preload/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'e2e/**/*.e2e.test.ts'],
    // Integration tests start real coqidetop processes: keep parallelism to the two cores we have.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
