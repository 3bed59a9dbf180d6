import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vFileDerivations } from './v-file-derivations.ts';
import { SentencePolicy } from './vernacular-policy.ts';

/**
 * Attacks on opening a `.v` file as derivations, with real coqidetop: hostile commands stop the run with a
 * clear reason at their line and never run; odd proof endings and selectors are shown, never converted wrongly.
 */
describe('.v files as derivations (attack, real coqidetop)', () => {
  const head = [
    'From Coq Require Import String. Open Scope string_scope. Definition s := "(* not a comment *)".',
    '(* a comment with "*)" in a string *)',
    'Lemma ok : forall n : nat, n + 0 = n.',
    'Proof using. intros n. induction n; simpl; [ reflexivity | rewrite IHn; reflexivity ]. Qed.',
  ].join('\n');

  it('Abort is allowed only inside a proof; Fail stays refused there', () => {
    expect(new SentencePolicy('define').judge('Abort.', true)).toBeUndefined();
    expect(new SentencePolicy('define').judge('Abort.', false)).toMatch(/not allowed/);
    expect(new SentencePolicy('define').judge('Fail Redirect "x" Print nat.', true)).toMatch(/not allowed/);
  });

  it('Redirect, Cd, Drop and Set Hammer PredictPath stop the run at their line; nothing they name is written', { timeout: 600_000 }, async () => {
    for (const hostile of ['Redirect "arbor-redirect-attack" Print nat.', 'Cd "/tmp".', 'Drop.', 'Set Hammer PredictPath "/tmp/arbor-predict-attack".']) {
      const report = await vFileDerivations(`${head}\n${hostile}\nLemma after : True. Proof. exact I. Qed.\n`, { timeoutMs: 60_000 });
      expect(report.stopped?.line, hostile).toBe(5);
      expect(report.stopped?.message, hostile).toMatch(/not allowed|refused|Syntax|parse error/i);
      // What came before is still shown and converts; what came after never ran.
      expect(report.theorems.map((t) => t.name), hostile).toEqual(['ok']);
      expect(report.theorems[0]?.converted.ok, hostile).toBe(true);
    }
    expect(existsSync('arbor-redirect-attack.out')).toBe(false);
    expect(existsSync('/tmp/arbor-predict-attack')).toBe(false);
  });

  it('Abort, an unfinished proof and all: selectors are shown but never converted as proved', { timeout: 600_000 }, async () => {
    const text = [
      head,
      'Lemma abo : False. Proof. intros. Abort.',
      'Lemma sel : True /\\ True. Proof. split. all: exact I. Qed.',
      'Lemma def : nat. Proof. exact 3. Defined.',
      'Lemma open : True /\\ False. Proof. split. exact I.',
    ].join('\n');
    const report = await vFileDerivations(text, { timeoutMs: 60_000 });
    expect(report.stopped).toBeUndefined();
    const by = new Map(report.theorems.map((t) => [t.name, t]));
    expect(by.get('abo')?.ending).toBe('Abort');
    expect(by.get('abo')?.converted.ok).toBe(false);
    expect(by.get('sel')?.converted.ok).toBe(false);
    expect(by.get('open')?.ending).toBe('open');
    expect(by.get('open')?.converted.ok).toBe(false);
    expect(by.get('ok')?.converted.ok).toBe(true);
  });

  it('an Admitted proof stops the run at its line, with the reason; it is never converted', { timeout: 600_000 }, async () => {
    const report = await vFileDerivations(`${head}\nLemma adm : forall n : nat, n = n + 0.\nProof. intros. Admitted.\nLemma after : True. Proof. exact I. Qed.\n`, { timeoutMs: 60_000 });
    expect(report.stopped).toMatchObject({ line: 6, message: expect.stringMatching(/Admitted/) });
    const adm = report.theorems.find((t) => t.name === 'adm');
    expect(adm?.converted.ok).toBe(false);
    expect(report.theorems.some((t) => t.name === 'after')).toBe(false);
  });

  // Left: real developments often admit a lemma and go on; the file is shown only up to its first Admitted (the
  // policy refuses Admitted, which adds an axiom). Showing the rest read-only, marked as resting on the admitted
  // lemma, needs a policy purpose of its own for read-only runs.
  // Left: `Fail tac.` inside a proof stops the run (the policy refuses `Fail` there: `Fail` can wrap a command with
  // side effects, so it needs the wrapped sentence judged, not the word).
  it.todo('`Fail tac.` inside a proof is judged by what it wraps, and a file goes on past it');
  it.todo('a file is shown past an Admitted proof, later theorems marked as resting on it');
});
