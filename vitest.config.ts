import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './vitest.summary-reporter.ts';

export default defineConfig({
  test: {
    include: ['eslint/**/*.test.ts', 'shared/**/*.test.ts', 'main/**/*.test.ts', 'preload/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'e2e/**/*.e2e.test.ts'],
    // Integration tests start real coqidetop processes: keep parallelism to the two cores we have.
    maxWorkers: 2,
    reporters: ['default', new SummaryReporter()],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
