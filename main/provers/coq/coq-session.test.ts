import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofStep, ProverSession, StepOutcome } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { coqBackend } from './coq-backend.ts';
import type { CoqSession } from './coq-session.ts';
import { descendants } from '../../process/process-tree.ts';

/** The coqidetop process itself: the session's pid is its process group's leader (bwrap, when sandboxed). */
const coqidetopOf = (leader: number): number => (leader && descendants(leader).find((p) => /coqidetop/.test(p.name))?.pid) || leader;

// Real coqidetop and coqc, no fakes.
const run = promisify(execFile);
const CHANNEL_PRELUDE = [
  'Definition dbl (n : nat) := n + n.',
  'Lemma dbl_eq : forall n, dbl n = 2 * n.',
  'Proof. intros; unfold dbl; lia. Qed.',
].join('\n');

const code = async (p: Promise<unknown>): Promise<string> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProverError);
  return (e as ProverError).code;
};

/** Compile a rendered script with coqc alone, and ask Coq what it assumes. */
const coqcAssumptions = async (script: string): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-coq-'));
  const file = join(dir, 'Proof.v');
  writeFileSync(file, `${script}\nPrint Assumptions arbor_goal.\n`);
  const r = await run('coqc', ['-q', file], { cwd: dir, timeout: 60_000 });
  return r.stdout + r.stderr;
};

describe('CoqSession', () => {
  let s: ProverSession;
  const steps: string[][] = [];
  const play = async (step: ProofStep): Promise<StepOutcome> => {
    const o = await s.step(step);
    steps.push(o.script);
    return o;
  };
  const start = async (goal: string): Promise<StepOutcome> => {
    steps.length = 0;
    const o = await s.start(goal);
    steps.push(o.script);
    return o;
  };

  beforeAll(async () => {
    s = await coqBackend.open({ timeoutMs: 5000, prelude: CHANNEL_PRELUDE });
  });
  afterAll(async () => {
    await s.dispose();
  });

  it('starts a goal and classifies variables, let-bound names and hypotheses', async () => {
    const o = await start('forall (A : Type) (n m : nat), let x := 3 in n + m = m + n -> (A -> A) -> True');
    expect(o.goals).toHaveLength(1);
    const a = await play({ kind: 'apply', tactic: 'intros A n m x H f' });
    expect(a.script).toEqual(['(intros A n m x H f).']);
    expect(a.goals[0]?.context).toEqual([
      { kind: 'var', name: 'A', text: 'Type' },
      { kind: 'var', name: 'n', text: 'nat' },
      { kind: 'var', name: 'm', text: 'nat' },
      { kind: 'var', name: 'x', text: 'nat' },
      { kind: 'hyp', name: 'H', text: 'n + m = m + n' },
      { kind: 'var', name: 'f', text: 'A -> A' },
    ]);
  });

  it('HAVE asserts; OBTAIN with two conditions fixes witnesses and names the conditions', async () => {
    await start('forall n : nat, n = n');
    await play({ kind: 'apply', tactic: 'intros n' });
    const h = await play({ kind: 'have', name: 'G', expr: 'n + 0 = n' });
    expect(h.goals.map((g) => g.goal)).toEqual(['n + 0 = n', 'n = n']);
    expect(h.goals[1]?.context.find((e) => e.name === 'G')).toEqual({ kind: 'hyp', name: 'G', text: 'n + 0 = n' });
    const o = await play({
      kind: 'obtain',
      name: 'h1',
      vars: ['a', 'b'],
      type: 'nat',
      conds: [
        { name: 'c1', expr: 'a = b' },
        { name: 'c2', expr: 'b = n' },
      ],
    });
    expect(o.goals.map((g) => g.goal)).toEqual(['exists a b : nat, a = b /\\ b = n', 'n + 0 = n', 'n = n']);
    expect(o.goals[0]?.context.map((e) => e.name)).toEqual(['n']);
    // the obtain's second goal is the rest of the proof... which here is HAVE's first goal, with the witnesses
    expect(o.goals[1]?.context.map((e) => `${e.kind}:${e.name}`)).toEqual(['var:n', 'var:a', 'var:b', 'hyp:c1', 'hyp:c2']);
  });

  it('RULE uses apply, eapply, or elimination on a hypothesis, and records which', async () => {
    await start('forall a b : nat, a < b -> b <> a');
    await play({ kind: 'apply', tactic: 'intros a b H' });
    const elim = await play({ kind: 'rule', rule: 'Nat.lt_le_incl' });
    expect(elim.script).toEqual(['eapply Nat.lt_le_incl in H.']);
    expect(elim.goals[0]?.context.find((e) => e.name === 'H')?.text).toBe('a <= b');

    await start('forall a b c : nat, a <= b -> b <= c -> a <= c');
    await play({ kind: 'apply', tactic: 'intros a b c H1 H2' });
    const e = await play({ kind: 'rule', rule: 'Nat.le_trans' });
    expect(e.script).toEqual(['eapply Nat.le_trans.']);
    await start('0 <= 5');
    const a = await play({ kind: 'rule', rule: 'Nat.le_0_l' });
    expect(a.script).toEqual(['apply Nat.le_0_l.']);
    expect(a.goals).toEqual([]);
    expect(await code(s.step({ kind: 'rule', rule: 'no_such_rule' }))).toBe('prover');
  });

  it('UNFOLD unfolds definitions, rewrites with equations, refuses the rest', async () => {
    await start('forall n, dbl n = n + n');
    const i = await s.step({ kind: 'apply', tactic: 'intros n' });
    const w = await s.step({ kind: 'unfold', rule: 'dbl_eq' });
    expect(w.script).toEqual(['rewrite dbl_eq.']);
    expect(w.goals[0]?.goal).toBe('2 * n = n + n');
    await s.restore(i.checkpoint);
    const u = await s.step({ kind: 'unfold', rule: 'dbl' });
    expect(u.script).toEqual(['unfold dbl.']);
    expect(u.goals[0]?.goal).toBe('n + n = n + n');
    const bad = s.step({ kind: 'unfold', rule: 'le_S' });
    await expect(bad).rejects.toThrow('bad rule: not an equation');
    expect(await code(s.step({ kind: 'unfold', rule: 'le_S' }))).toBe('bad rule');
    // a failed step leaves the state where it was
    expect((await s.goals())[0]?.goal).toBe('n + n = n + n');
  });

  it('CRUSH simplifies and splits, and fails without progress', async () => {
    await start('forall (l : list nat) (n : nat), n + 0 = n /\\ rev (rev l) = l');
    const c = await s.step({ kind: 'crush', rules: [] });
    expect(c.goals.map((g) => g.goal)).toEqual(['rev (rev l) = l']);
    expect(await code(s.step({ kind: 'crush', rules: [] }))).toBe('fail');
    const r = await s.step({ kind: 'crush', rules: ['rev_involutive'] });
    expect(r.goals).toEqual([]);
  });

  it('HAMMER closes arithmetic with CRUSH and a list lemma with CoqHammer; the script compiles with coqc alone', async () => {
    await start('forall n m : nat, n + m = m + n');
    const h = await play({ kind: 'hammer', timeoutMs: 20_000 });
    expect(h.goals).toEqual([]);
    expect((await coqcAssumptions(s.renderScript('forall n m : nat, n + m = m + n', steps, 0))).replace(/\s+/g, ' ')).toMatch(
      /Closed under the global context/,
    );

    const goal = 'forall (l : list nat) (f : nat -> nat), length (map f l) = length l';
    await start(goal);
    const t0 = Date.now();
    const hh = await play({ kind: 'hammer', timeoutMs: 60_000 });
    const took = Date.now() - t0;
    expect(hh.goals).toEqual([]);
    expect(hh.script.join(' ')).not.toMatch(/\bhammer\b/);
    // Closed by the portfolio's rewriting, or by CoqHammer's reconstruction (which says so).
    const by = hh.report?.stages.find((x) => x.outcome === 'closed')?.stage;
    expect(['rewrite', 'sauto', 'decision', 'reconstruction']).toContain(by);
    if (by === 'reconstruction') expect(hh.messages?.join('\n')).toMatch(/Replace the hammer tactic/);
    const script = s.renderScript(goal, steps, 0);
    expect(script).toMatch(/Qed\.\n$/);
    expect(await coqcAssumptions(script)).toMatch(/Closed under the global context/);
    console.info(`hammer (CoqHammer path) took ${took} ms: ${hh.script.join(' ')}`);
  }, 120_000);

  it('an unfinished script ends Admitted with the number of open goals', async () => {
    await start('forall n : nat, n = n /\\ n + 0 = n');
    await play({ kind: 'apply', tactic: 'intros n; split' });
    const text = s.renderScript('forall n : nat, n = n /\\ n + 0 = n', steps, 2);
    expect(text).toMatch(/\(\* 2 open goals \*\)\nAdmitted\.\n$/);
    await coqcAssumptions(text); // still compiles
  });

  it('restores a checkpoint', async () => {
    const first = await start('forall n : nat, n + 0 = n');
    const i = await s.step({ kind: 'apply', tactic: 'intros n' });
    await s.step({ kind: 'apply', tactic: 'induction n' });
    await s.restore(i.checkpoint);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['n + 0 = n']);
    await s.restore(first.checkpoint);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['forall n : nat, n + 0 = n']);
    const again = await s.step({ kind: 'apply', tactic: 'intros m' });
    expect(again.goals[0]?.context.map((e) => e.name)).toEqual(['m']);
  });

  it('print mode 2 prints s-expressions with full names and de Bruijn indices', async () => {
    await start('forall (l : list nat), length l = length (rev l) -> exists k, k = length l');
    await s.step({ kind: 'apply', tactic: 'intros l H' });
    await s.setPrintMode(2);
    const g = (await s.goals())[0];
    await s.setPrintMode(1);
    expect(g?.goal).toBe(
      '(Coq.Init.Logic.ex Coq.Init.Datatypes.nat (\\<lambda> Coq.Init.Datatypes.nat (Coq.Init.Logic.eq Coq.Init.Datatypes.nat _0 (Coq.Init.Datatypes.length Coq.Init.Datatypes.nat l))))',
    );
    expect(g?.context).toEqual([
      { kind: 'var', name: 'l', text: '(Coq.Init.Datatypes.list Coq.Init.Datatypes.nat)' },
      {
        kind: 'hyp',
        name: 'H',
        text: '(Coq.Init.Logic.eq Coq.Init.Datatypes.nat (Coq.Init.Datatypes.length Coq.Init.Datatypes.nat l) (Coq.Init.Datatypes.length Coq.Init.Datatypes.nat (Coq.Lists.List.rev Coq.Init.Datatypes.nat l)))',
      },
    ]);
    expect((await s.goals())[0]?.goal).toBe('exists k : nat, k = length l');
  });

  it('check() reports coqidetop, CoqHammer and the usable ATPs', async () => {
    const c = await coqBackend.check();
    expect(c.available).toBe(true);
    expect(c.details.join('\n')).toMatch(/8\.16/);
    expect(c.details.join('\n')).toMatch(/ATPs CoqHammer can use: E .*CVC4/);
  });

  it('refuses fragments that could end the sentence or run a vernacular', async () => {
    await start('True');
    expect(await code(s.step({ kind: 'apply', tactic: 'auto. Redirect "x" Print nat' }))).toBe('parse');
    expect(await code(s.step({ kind: 'have', name: 'h', expr: 'True). Check (nat' }))).toBe('parse');
    expect(await code(s.step({ kind: 'have', name: 'h', expr: 'True (* x' }))).toBe('parse');
    expect(await code(s.step({ kind: 'have', name: 'a b', expr: 'True' }))).toBe('parse');
    expect(await code(s.start('True. Check nat'))).toBe('refused');
    expect(await code(s.step({ kind: 'apply', tactic: 'apply (' }))).toBe('parse');
    await expect(s.step({ kind: 'apply', tactic: 'admit' })).rejects.toThrow('admit is not allowed');
    // Before Coq reads a PRELUDE: only size and control characters (Coq delimits and the policy judges as it boots).
    expect(coqBackend.checkPrelude?.('Definition x := 1.\u0000Redirect "/tmp/x" Print nat.')).toMatch(/control characters/);
    expect(coqBackend.checkPrelude?.('Definition two := 2.')).toBeUndefined();
  });
});

describe('CoqSession under failure', () => {
  let s: CoqSession;
  beforeAll(async () => {
    s = (await coqBackend.open({ timeoutMs: 2000 })) as CoqSession;
  });
  afterAll(async () => {
    await s.dispose();
  });

  it('a looping tactic times out and the session stays usable', async () => {
    await s.start('forall n : nat, n = n');
    const i = await s.step({ kind: 'apply', tactic: 'intros n' });
    const t0 = Date.now();
    expect(await code(s.step({ kind: 'apply', tactic: 'repeat (pose proof I)' }))).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(6000);
    const r = await s.step({ kind: 'apply', tactic: 'reflexivity' });
    expect(r.goals).toEqual([]);
    await s.restore(i.checkpoint);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['n = n']);
  });

  it('a coqidetop that ignores the interrupt is killed, restarted and replayed: timeout, then usable', async () => {
    await s.start('forall n : nat, n = n');
    await s.step({ kind: 'apply', tactic: 'intros n' });
    const pid = s.pid as number;
    process.kill(coqidetopOf(pid), 'SIGSTOP'); // a wedged process: SIGINT cannot help, only SIGKILL
    expect(await code(s.step({ kind: 'apply', tactic: 'idtac' }))).toBe('timeout');
    expect(s.pid).not.toBe(pid);
    expect((await s.step({ kind: 'apply', tactic: 'reflexivity' })).goals).toEqual([]);
  });

  it('a HAMMER whose coqidetop must be killed at the deadline answers timeout with its report, then the session is usable', async () => {
    await s.start('forall f : nat -> nat, (forall n, f (f n) = n + 1) -> f 0 = 7');
    await s.step({ kind: 'apply', tactic: 'intro f' });
    const pid = s.pid as number;
    process.kill(coqidetopOf(pid), 'SIGSTOP'); // deaf to the deadline's SIGINT: killed after the client's grace
    const t0 = Date.now();
    const e = await s.step({ kind: 'hammer', timeoutMs: 3000 }).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(ProverError);
    expect((e as ProverError).code).toBe('timeout');
    // What was tried is said as when the deadline interrupts a stage (it was a bare `timeout`).
    expect((e as ProverError).report?.stages).toBeDefined();
    expect(Date.now() - t0).toBeLessThan(3000 + 1000 + 1500);
    expect((await s.step({ kind: 'apply', tactic: 'intro H' })).goals).toHaveLength(1);
    expect(s.pid).not.toBe(pid);
  });

  it('a killed coqidetop gives crashed, then the session continues from the last good step', async () => {
    await s.start('forall n : nat, n + 0 = n');
    const i = await s.step({ kind: 'apply', tactic: 'intros n' });
    const pid = s.pid;
    process.kill(coqidetopOf(pid as number), 'SIGKILL');
    expect(await code(s.step({ kind: 'apply', tactic: 'induction n' }))).toBe('crashed');
    expect(s.pid).not.toBe(pid);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['n + 0 = n']);
    const r = await s.step({ kind: 'apply', tactic: 'induction n; simpl; congruence' });
    expect(r.goals).toEqual([]);
    await s.restore(i.checkpoint);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['n + 0 = n']);
  });
});
