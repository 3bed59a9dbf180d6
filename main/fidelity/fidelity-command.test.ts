import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFidelityCommand } from './fidelity-command.ts';

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => { out.push(s); }, err: (s: string) => { err.push(s); } }, out, err };
};

describe('arbor fidelity CLI', () => {
  it('checks one Lean pair (S0/S1 only) and prints the verdict', async () => {
    const c = capture();
    const code = await runFidelityCommand(['--canonical', '∀ a b : ℕ, a + b ≥ a', '--candidate', 'forall a b : Nat, a <= a + b', '--backend', 'lean'], c.io);
    expect(code).toBe(0);
    expect(c.out.join('')).toMatch(/verdict: equivalent \(tier s1\)/u);
  });

  it('runs a batch from JSON lines, writes the report with totals', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arbor-fid-cli-'));
    const cases = join(dir, 'cases.jsonl');
    const report = join(dir, 'report.json');
    await writeFile(cases, [
      JSON.stringify({ id: 'a', canonical: '∀ n : ℕ, n + 0 = n', candidate: '∀ m : ℕ, m + 0 = m', truth: 'equivalent' }),
      JSON.stringify({ id: 'b', canonical: '∀ n : ℕ, n + 0 = n', candidate: '∃ n : ℕ, n + 0 = n', truth: 'not_equivalent' }),
    ].join('\n'));
    const c = capture();
    expect(await runFidelityCommand(['--cases', cases, '--backend', 'lean', '--report', report], c.io)).toBe(0);
    const doc = JSON.parse(await readFile(report, 'utf8')) as { cases: { id: string; verdict: string }[]; totals: { cases: number; accuracy: { precisionEquivalent: number } } };
    expect(doc.cases.map((r) => [r.id, r.verdict])).toEqual([['a', 'equivalent'], ['b', 'unknown']]);
    expect(doc.totals.cases).toBe(2);
    expect(doc.totals.accuracy.precisionEquivalent).toBe(1);
  });

  it('rejects bad flags with exit code 2', async () => {
    const c = capture();
    expect(await runFidelityCommand(['--tiers', 's0,bogus', '--canonical', 'P', '--candidate', 'P'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/unknown tier 'bogus'/u);
    expect(await runFidelityCommand(['--nope'], capture().io)).toBe(2);
    expect(await runFidelityCommand(['--canonical', 'P'], capture().io)).toBe(2);
  });
});
