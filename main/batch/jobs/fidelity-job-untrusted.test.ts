import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_OUTCOME } from '../../../shared/batch/batch-job.ts';
import { runFidelityJob } from './fidelity-job.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbor-fidelity-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arbor batch fidelity: a case context is Coq text Coq delimits (real coqidetop)', () => {
  it("a context hiding a sentence in a string inside a comment is that item's error, and the sentence never runs", async () => {
    const out = join(dir, 'pwned');
    const r = await runFidelityJob({
      kind: 'fidelity', id: 'hostile', canonical: 'True', candidate: 'True', backend: 'coq', classical: false, timeoutMs: 1000, tiers: ['s0'],
      context: `Definition ok := 1. (* "(*" *) Redirect "${out}" Print nat. (* "*)" *)`,
    });
    expect(r).toMatchObject({ outcome: ERROR_OUTCOME, evidence: { message: expect.stringMatching(/sentence not allowed: Redirect/) } });
    expect(existsSync(`${out}.out`)).toBe(false);
  }, 60_000);
});
