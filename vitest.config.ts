import { realpathSync } from 'node:fs';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    // expect.poll waits on a condition; its 1 s default failed on a busy CI machine (an inspector that took longer
    // to update). A condition that holds still returns at once.
    expect: { poll: { timeout: 20_000 } },
    // Test doubles (a Pantograph double, an external arbor-shell) run from this repository through node and
    // tsx: sandboxed provers may read the repository and its node_modules (wherever that symlink points).
    // The Pantograph double reads its version from the environment.
    env: {
      ARBOR_SANDBOX_READ: [fileURLToPath(new URL('.', import.meta.url)), realpathSync(fileURLToPath(new URL('node_modules', import.meta.url)))].join(delimiter),
      ARBOR_SANDBOX_ENV: 'PANTOGRAPH_DOUBLE_VERSION,PANTOGRAPH_DOUBLE_VERSION_SUFFIX,LEAN_SYSROOT',
    },
  },
});
