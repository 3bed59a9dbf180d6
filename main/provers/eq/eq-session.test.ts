import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProverError, type StepOutcome } from '../../shell/prover-session.ts';
import { checkProof } from './check-proof.ts';
import { DEFAULT_PRELUDE } from './default-prelude.ts';
import { eqBackend } from './eq-backend.ts';
import type { EqSession } from './eq-session.ts';
import { aimDataAvailable, readAim } from './test-data.ts';

const coqAvailable = existsSync('/usr/bin/coqc');

async function open(prelude?: string): Promise<EqSession> {
  return (await eqBackend.open({ timeoutMs: 10_000, ...(prelude ? { prelude } : {}) })) as EqSession;
}

function coqAccepts(script: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-eq-'));
  writeFileSync(join(dir, 'P.v'), script);
  const out = execFileSync('/usr/bin/coqc', ['P.v'], { cwd: dir, encoding: 'utf8' });
  expect(out).toContain('Axioms:');
}

describe('eq session', () => {
  it('RULE at a position and at the first match, then closes when the sides meet', async () => {
    const s = await open();
    const steps: string[][] = [];
    const keep = (o: StepOutcome): StepOutcome => (steps.push(o.script), o);
    keep(await s.start('e * (x * e) = x'));
    const a = keep(await s.step({ kind: 'rule', rule: 'rid@1.2' }));
    expect(a.goals[0]?.goal).toBe('e * x = x');
    const b = keep(await s.step({ kind: 'rule', rule: 'lid' }));
    expect(b.goals).toEqual([]);
    const proof = s.proofJson(steps)!;
    expect(checkProof(DEFAULT_PRELUDE, proof, 'e * (x * e) = x')).toMatchObject({ ok: true });
    if (coqAvailable) coqAccepts(s.renderScript('e * (x * e) = x', steps, 0));
  });
  it('failed steps leave the state unchanged and give stable errors', async () => {
    const s = await open();
    await s.start('x * e = x');
    await expect(s.step({ kind: 'rule', rule: 'b1' })).rejects.toThrow(/matches nowhere/);
    await expect(s.step({ kind: 'rule', rule: 'nosuch' })).rejects.toThrow(ProverError);
    await expect(s.step({ kind: 'unfold', rule: 'Q' })).rejects.toMatchObject({ code: 'bad rule' });
    await expect(s.step({ kind: 'obtain', name: 'h', vars: ['y'], conds: [] })).rejects.toMatchObject({ code: 'fail' });
    await expect(s.start('x * * y = x')).rejects.toMatchObject({ code: 'parse' });
    expect((await s.goals())[0]?.goal).toBe('x * e = x');
  });
  it('UNFOLD, CRUSH, HAVE, APPLY trans and HAMMER compose into one checked proof; restore goes back', async () => {
    const s = await open();
    const steps: string[][] = [];
    const keep = (o: StepOutcome): StepOutcome => (steps.push(o.script), o);
    const goal = 'T(x,e) = (x / y) * y';
    const first = keep(await s.start(goal));
    const u = keep(await s.step({ kind: 'unfold', rule: 'T' }));
    expect(u.goals[0]?.goal).toBe('e \\ (x * e) = (x / y) * y');
    const h = keep(await s.step({ kind: 'have', name: 'ldivE', expr: 'e \\ z = z' }));
    expect(h.goals).toHaveLength(2);
    expect(h.goals[0]?.goal).toBe('e \\ z = z');
    keep(await s.step({ kind: 'hammer', timeoutMs: 10_000 }));
    const t = keep(await s.step({ kind: 'apply', tactic: 'trans "x"' }));
    expect(t.goals.map((g) => g.goal)).toEqual(['e \\ (x * e) = x', 'x = (x / y) * y']);
    expect(t.goals[0]?.context.some((c) => c.name === 'ldivE')).toBe(true);
    keep(await s.step({ kind: 'crush', rules: ['ldivE'] }));
    const last = keep(await s.step({ kind: 'crush', rules: [] }));
    expect(last.goals).toEqual([]);
    const proof = s.proofJson(steps)!;
    expect(checkProof(DEFAULT_PRELUDE, proof, goal)).toMatchObject({ ok: true });
    if (coqAvailable) coqAccepts(s.renderScript(goal, steps, 0));
    await s.restore(first.checkpoint);
    expect((await s.goals())[0]?.goal).toBe(goal);
  });
  it('an unfinished script is marked open', async () => {
    const s = await open();
    const o = await s.start('x * y = y * x');
    expect(s.renderScript('x * y = y * x', [o.script], 1)).toMatch(/open/);
  });
  it.skipIf(!aimDataAvailable)('HAMMER proves an AIM problem with the ARTICLE preamble and coqc accepts the script', async () => {
    const pre = readAim('preamble.txt');
    const s = await open(pre);
    const line = readAim('dev.txt').split('\n')[5]!;
    const goal = /:\s*(.*)\.$/.exec(line)![1]!;
    const steps = [(await s.start(goal)).script];
    const o = await s.step({ kind: 'hammer', timeoutMs: 20_000 });
    steps.push(o.script);
    expect(o.goals).toEqual([]);
    expect(checkProof(pre, s.proofJson(steps)!, goal)).toMatchObject({ ok: true });
    if (coqAvailable) coqAccepts(s.renderScript(goal, steps, 0));
  });
});
