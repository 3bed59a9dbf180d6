import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('arbor (bin/arbor.js)', () => {
  it('lists its commands and rejects unknown ones', async () => {
    const { stdout } = await run(process.execPath, ['bin/arbor.js', '--help']);
    for (const command of ['shell', 'mcp', 'fidelity', 'advisor', 'check']) expect(stdout).toContain(`  ${command} `);
    await expect(run(process.execPath, ['bin/arbor.js', 'frobnicate'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'frobnicate'") });
  });

  it('runs fidelity: S1 decides α-equivalent statements without a prover', async () => {
    const { stdout } = await run(process.execPath, ['bin/arbor.js', 'fidelity', '--canonical', 'forall n : nat, n + 0 = n', '--candidate', 'forall m : nat, m + 0 = m', '--tiers', 's0,s1'], { timeout: 60_000 });
    expect(stdout).toMatch(/verdict: equivalent \(tier s1\)/);
  }, 60_000);
});
