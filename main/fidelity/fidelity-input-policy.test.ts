import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FidelityProver } from '../../shared/fidelity/fidelity-prover.ts';
import { checkFidelity, FidelityInputRefused } from './check-fidelity.ts';
import { createCoqFidelityProver } from './coq-fidelity-prover.ts';
import { formatReport } from './fidelity-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbor-fidelity-untrusted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fidelity inputs are untrusted text', () => {
  const refused: [string, { canonical: string; candidate: string; context?: string }][] = [
    ['a context that writes a file', { canonical: 'True', candidate: 'True', context: 'Redirect "/tmp/arbor-pwned" Print nat.' }],
    ['a context that loads a file', { canonical: 'True', candidate: 'True', context: 'Load "/etc/passwd".' }],
    ['a context that runs a shell through CoqHammer', { canonical: 'True', candidate: 'True', context: 'Set Hammer PredictPath "touch /tmp/arbor-pwned;".' }],
    ['a context that bypasses the guard checker', { canonical: 'True', candidate: 'True', context: 'Unset Guard Checking.' }],
    ['a context that closes the section it is pasted in', { canonical: 'True', candidate: 'True', context: 'End arbor_ctx. Definition x := 1.' }],
    ['a context hiding a sentence in a string inside a comment', { canonical: 'True', candidate: 'True', context: 'Definition ok := 1. (* "(*" *) Cd "/tmp". (* "*)" *)' }],
    ['a context that leaves a proof open', { canonical: 'True', candidate: 'True', context: 'Lemma l : True.' }],
    ['a statement that ends its sentence', { canonical: 'True. Redirect "/tmp/x" Print nat. Theorem t : True', candidate: 'True' }],
    ['a statement with a comment', { canonical: 'True (* x', candidate: 'True' }],
  ];
  for (const [name, input] of refused) {
    it(`refuses ${name} before anything runs`, async () => {
      await expect(checkFidelity({ ...input, tiers: ['s0'] }, null)).rejects.toBeInstanceOf(FidelityInputRefused);
    });
  }

  it('a context may declare parameters and hypotheses: that is its purpose', async () => {
    const report = await checkFidelity({ canonical: 'P x', candidate: 'P x', context: 'Parameter P : nat -> Prop. Parameter x : nat. Hypothesis h : P x.', tiers: ['s0'] }, null);
    expect(report.verdict).toBe('equivalent');
  });

  // Coq delimits the context (real coqidetop) and the policy judges Coq's sentences: Arbor's own lexing is not the gate.
  it('refuses a sentence hidden behind a string inside a comment, and it never runs', async () => {
    const out = join(dir, 'ctx');
    const context = `Definition ok := 1. (* "(*" *) Redirect "${out}" Print nat. (* "*)" *)`;
    const e = await checkFidelity({ canonical: 'True', candidate: 'True', context, tiers: ['s0'] }, null).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FidelityInputRefused);
    expect((e as Error).message).toMatch(/sentence not allowed: Redirect/);
    expect(existsSync(`${out}.out`)).toBe(false);
    await expect(checkFidelity({ canonical: 'True', candidate: 'True', context: 'Definition ok := 1. (* "(*" *) Set Hammer PredictPath "touch /tmp/x;". (* "*)" *)', tiers: ['s0'] }, null))
      .rejects.toThrow(/option not allowed: Hammer PredictPath/);
  }, 60_000);

  it('the proof files hold exactly the sentences Coq delimited, never the text as given', async () => {
    const seen: string[] = [];
    const real = createCoqFidelityProver();
    const spy: FidelityProver = { ...real, typeCheck: async (task) => { seen.push(task.context.text); return real.typeCheck(task); } };
    const context = 'Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..). (* "(*" *) Fixpoint len (l : list nat) : nat := match l with nil => 0 | cons _ t => S (len t) end.';
    const report = await checkFidelity({ canonical: 'len [[1; 2]] = 2', candidate: 'len [[1; 2]] = 2', context, tiers: ['typecheck', 's0'] }, spy);
    expect(report.verdict).toBe('equivalent');
    expect(seen).toEqual(['Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..).\n(* "(*" *) Fixpoint len (l : list nat) : nat := match l with nil => 0 | cons _ t => S (len t) end.']);
  }, 120_000);
});


describe('fidelity verdicts are about the statements as Coq elaborated them in the context (issue 21)', () => {
  it('a context making `False` mean a proposition P: "equivalent" to P, and the report says what `False` means, in the CLI text too', async () => {
    const report = await checkFidelity({ canonical: 'False', candidate: 'P', context: 'Parameter P : Prop. Notation "\'False\'" := P.', tiers: ['typecheck', 's0', 's1', 's3-lite'] });
    // Coq proves them equivalent (they are, as elaborated); the report must say that `False` here is `P`.
    expect(report.verdict).toBe('equivalent');
    expect(report.statements?.canonical?.elaborated).toBe('Top.arbor_ctx.P');
    expect(report.statements?.canonical?.differences.join('\n')).toMatch(/clean reading has `Coq\.Init\.Logic\.False`/);
    // `P` is the context's own: with a notation declared beside it, the judge does not call it clean either.
    expect(report.statements?.candidate?.differences.join('\n')).toMatch(/`P` is the document's own `Top\.arbor_ctx\.P`/);
    expect(report.reason).toMatch(/do not mean what their text says/);
    expect(formatReport(report)).toMatch(/MEANING: the canonical statement does not mean what its text says; as Coq elaborated it in the context: Top\.arbor_ctx\.P\n/);
    const asTrue = await checkFidelity({ canonical: 'False', candidate: 'True', context: 'Notation "\'False\'" := True.', tiers: ['typecheck'] });
    expect(asTrue.statements?.canonical?.elaborated).toBe('Coq.Init.Logic.True');
  }, 180_000);

  it('an honest context (parameters, hypotheses, a library import and scope) adds nothing', async () => {
    const report = await checkFidelity({ canonical: 'forall n, P (double n)', candidate: 'forall n, P (double n)', context: 'Require Import ZArith. Open Scope Z_scope. Parameter P : Z -> Prop. Definition double (z : Z) := z + z.', tiers: ['typecheck', 's0'] });
    expect(report.verdict).toBe('equivalent');
    expect(report.statements).toBeUndefined();
  }, 180_000);
});
