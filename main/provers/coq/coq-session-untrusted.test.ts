import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoqc } from '../../fidelity/run-coqc.ts';
import type { ProverSession } from '../../shell/prover-session.ts';
import { coqBackend } from './coq-backend.ts';

// DEFINE and PRELUDE through a real CoqSession: Coq delimits, the policy judges, exactly what ran is scripted.
const dir = mkdtempSync(join(tmpdir(), 'arbor-session-untrusted-'));
const hidden = (name: string): string => `Redirect "${join(dir, name)}" Print nat.`;
const ran = (name: string): boolean => existsSync(join(dir, `${name}.out`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DEFINE', () => {
  let s: ProverSession;
  beforeAll(async () => {
    s = await coqBackend.open({ timeoutMs: 10_000 });
  });
  afterAll(() => s.dispose());

  it('refuses a sentence hidden behind a string inside a comment; the unfinished proof it would discard stays', async () => {
    await s.start('forall n : nat, n = n', 'refl');
    await s.step({ kind: 'apply', tactic: 'intros n' });
    const define = s.define?.(`Definition ok := 1. (* "(*" *) ${hidden('define')} (* "*)" *)`);
    await expect(define).rejects.toMatchObject({ code: 'refused', message: expect.stringMatching(/sentence not allowed: Redirect/) });
    expect(ran('define')).toBe(false);
    // Refused text changed nothing: the proof goes on where it was.
    const done = await s.step({ kind: 'apply', tactic: 'reflexivity' });
    expect(done.goals).toEqual([]);
  }, 60_000);

  it('accepts declarations with notations, `..` and a proof with bullets; the script is the exact sentences', async () => {
    const text = 'Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..). (* "*)" *) Lemma sw (P Q : Prop) : P /\\ Q -> Q /\\ P. Proof. intros [p q]. split. - exact q. - { exact p. } Qed.';
    const r = await s.define?.(text);
    expect(r?.script).toEqual([
      'Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..).',
      '(* "*)" *) Lemma sw (P Q : Prop) : P /\\ Q -> Q /\\ P.',
      'Proof.', 'intros [p q].', 'split.', '-', 'exact q.', '-', '{', 'exact p.', '}', 'Qed.',
    ]);
    expect(r?.declared.map((d) => d.name)).toEqual(expect.arrayContaining(['"[[ x ; .. ; y ]]"', 'sw']));
  }, 60_000);
});

describe('PRELUDE', () => {
  it('is judged as Coq delimits it when the session boots: a hidden sentence never runs', async () => {
    await expect(coqBackend.open({ timeoutMs: 10_000, untrustedPrelude: `Definition ok := 1. (* "(*" *) ${hidden('prelude')} (* "*)" *)` }))
      .rejects.toMatchObject({ code: 'refused', message: expect.stringMatching(/sentence not allowed: Redirect/) });
    expect(ran('prelude')).toBe(false);
  }, 60_000);

  it('an honest prelude runs, and the document script holds exactly its sentences (coqc accepts it)', async () => {
    const s = await coqBackend.open({ timeoutMs: 10_000, untrustedPrelude: 'Require Import List. (* "(*" *) Lemma t : True. Proof. - exact I. Qed.' });
    try {
      await s.start('t = t', 'tt');
      await s.step({ kind: 'apply', tactic: 'reflexivity' });
      const script = s.renderDocument?.([{ kind: 'proof', name: 'tt', goal: 't = t', steps: [['reflexivity.']], openGoals: 0 }]) ?? '';
      expect(script).toContain('Require Import List.\n(* "(*" *) Lemma t : True.\nProof.\n-\nexact I.\nQed.');
      const compiled = await runCoqc(script, { killAfterMs: 120_000 });
      expect(compiled.ok, compiled.output).toBe(true);
    } finally {
      await s.dispose();
    }
  }, 120_000);
});

describe('the workspace project file prelude', () => {
  it('is judged like any text from a folder: a hidden sentence never runs', async () => {
    await expect(coqBackend.open({ timeoutMs: 10_000, projectPrelude: `Definition ok := 1. (* "(*" *) ${hidden('project')} (* "*)" *)` }))
      .rejects.toMatchObject({ code: 'refused', message: expect.stringMatching(/sentence not allowed: Redirect/) });
    expect(ran('project')).toBe(false);
  }, 60_000);

  it('may declare axioms (its purpose), which the script keeps as Coq ran them', async () => {
    const s = await coqBackend.open({ timeoutMs: 10_000, projectPrelude: 'Parameter secret : nat.\nAxiom secret_pos : 0 < secret.' });
    try {
      const script = s.renderDocument?.([]) ?? '';
      expect(script).toContain('Parameter secret : nat.\nAxiom secret_pos : 0 < secret.');
    } finally {
      await s.dispose();
    }
  }, 60_000);

  it('its axioms are trusted only when the user confirmed them (trustProjectAxioms), never otherwise', async () => {
    const prelude = 'Axiom ax : 1 = 2. (* Axiom ghost : False. *)';
    for (const trust of [false, true]) {
      const s = await coqBackend.open({ timeoutMs: 10_000, projectPrelude: prelude, ...(trust ? { trustProjectAxioms: true } : {}) });
      try {
        await s.start('1 = 2', 'uses_ax');
        await s.step({ kind: 'apply', tactic: 'exact ax' });
        const finished = s.finish?.();
        if (trust) await expect(finished).resolves.toMatchObject({ assumptions: expect.arrayContaining([expect.stringMatching(/ax/)]) });
        else await expect(finished).rejects.toMatchObject({ code: 'unsound' });
      } finally {
        await s.dispose();
      }
    }
  }, 120_000);
});

