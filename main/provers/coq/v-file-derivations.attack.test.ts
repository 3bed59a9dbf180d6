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

  it('Abort is allowed only inside a proof; Fail is judged by the sentence it wraps', () => {
    expect(new SentencePolicy('define').judge('Abort.', true)).toBeUndefined();
    expect(new SentencePolicy('define').judge('Abort.', false)).toMatch(/not allowed/);
    expect(new SentencePolicy('define').judge('Fail Redirect "x" Print nat.', true)).toMatch(/not allowed: Redirect/);
    expect(new SentencePolicy('define').judge('Fail reflexivity.', true)).toBeUndefined();
    // Only a read-only run may admit; `Fail admit.` elsewhere is refused as `admit.` is.
    expect(new SentencePolicy('define').judge('Admitted.', true)).toMatch(/not allowed/);
    expect(new SentencePolicy('define').judge('Fail admit.', true)).toMatch(/gives up/);
    expect(new SentencePolicy('read-only').judge('Admitted.', true)).toBeUndefined();
  });

  it('Redirect, Cd, Drop and Set Hammer PredictPath are never run (skipped, or the run stops, at their line); nothing they name is written', { timeout: 600_000 }, async () => {
    for (const hostile of ['Redirect "arbor-redirect-attack" Print nat.', 'Cd "/tmp".', 'Drop.', 'Set Hammer PredictPath "/tmp/arbor-predict-attack".']) {
      const report = await vFileDerivations(`${head}\n${hostile}\nLemma after : True. Proof. exact I. Qed.\n`, { timeoutMs: 60_000 });
      // Refused by the policy: skipped, and the run goes on (the later theorem says so); unreadable: the run stops.
      expect(report.stopped?.line ?? report.skipped?.[0]?.line, hostile).toBe(5);
      expect(report.stopped?.message ?? report.skipped?.[0]?.reason, hostile).toMatch(/not allowed|refused|Syntax|parse error/i);
      // What came before is still shown and converts; what came after is marked as read without it.
      expect(report.theorems[0]?.name, hostile).toBe('ok');
      expect(report.theorems[0]?.converted.ok, hostile).toBe(true);
      for (const t of report.theorems.slice(1)) expect(t.readWithout, hostile).toEqual([5]);
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

  it('`Fail tac.` inside a proof is judged by what it wraps; Coq decides; the file goes on past it', { timeout: 600_000 }, async () => {
    const ok = await vFileDerivations(`${head}\nLemma f : 1 = 1.\nProof. Fail exact I. Fail Fail reflexivity. reflexivity. Qed.\nLemma after : True. Proof. exact I. Qed.\n`, { timeoutMs: 60_000 });
    expect(ok.stopped).toBeUndefined();
    const f = ok.theorems.find((t) => t.name === 'f');
    expect(f?.ending).toBe('Qed');
    // The expected failures change no goal: no step, and no APPLY line in the conversion.
    expect(f?.steps).toHaveLength(2);
    expect(f?.converted).toEqual({ ok: true, lines: expect.arrayContaining(['GOAL f "1 = 1"', 'APPLY reflexivity', 'END']) as unknown });
    expect(f?.converted.ok && f.converted.lines.some((l) => /Fail/.test(l.replace(/^DEFINE .*/, '')))).toBe(false);
    expect(ok.theorems.find((t) => t.name === 'after')?.converted.ok).toBe(true);
    // A tactic under Fail that succeeds: Coq's answer (an error) stops the run at its line.
    const succeeded = await vFileDerivations(`${head}\nLemma g : 1 = 1.\nProof.\nFail reflexivity.\nQed.\n`, { timeoutMs: 60_000 });
    expect(succeeded.stopped?.line).toBe(7);
    // What Fail wraps is judged as itself: a command inside a proof stays refused, and never runs.
    const hostile = await vFileDerivations(`${head}\nLemma h : True.\nProof. Fail Redirect "arbor-fail-redirect" Print nat. exact I. Qed.\n`, { timeoutMs: 60_000 });
    expect(hostile.skipped).toEqual([expect.objectContaining({ line: 6, reason: expect.stringMatching(/not allowed: Redirect/) as unknown })]);
    expect(existsSync('arbor-fail-redirect.out')).toBe(false);
  });

  it('a file is shown past an Admitted proof; later theorems resting on it are marked (Print Assumptions), others convert', { timeout: 600_000 }, async () => {
    const text = [
      head,
      'Lemma adm : forall n : nat, n = n + 0.',
      'Proof. intros. admit. Admitted.',
      'Lemma uses : 3 = 3 + 0. Proof. apply adm. Qed.',
      'Definition uses_again := adm.',
      'Lemma indirect : 4 = 4 + 0. Proof. exact (uses_again 4). Qed.',
    ].join('\n');
    const report = await vFileDerivations(`${text}\nLemma free : True. Proof. exact I. Qed.\nModule M. Lemma adm : True. Proof. exact I. Qed. End M.\nLemma spoof : True. Proof. exact M.adm. Qed.\n`, { timeoutMs: 60_000 });
    expect(report.stopped).toBeUndefined();
    // The first theorem of each name (M's own `adm` comes later).
    const by = new Map([...report.theorems].reverse().map((t) => [t.name, t]));
    expect(by.get('adm')?.ending).toBe('Admitted');
    expect(report.theorems.filter((t) => t.name === 'adm').map((t) => t.ending)).toEqual(['Admitted', 'Qed']);
    expect(by.get('adm')?.converted).toMatchObject({ ok: false, reason: expect.stringMatching(/Admitted, not proved/) });
    expect(by.get('uses')?.restsOn).toEqual([{ name: 'adm', line: 5 }]);
    expect(by.get('uses')?.converted).toMatchObject({ ok: false, reason: expect.stringMatching(/rests on adm \(line 5\), admitted/) });
    // Through a definition: still Coq's answer, not the proof's text.
    expect(by.get('indirect')?.restsOn).toEqual([{ name: 'adm', line: 5 }]);
    // A theorem using a different constant that is also called `adm` rests on nothing.
    expect(by.get('spoof')?.restsOn).toBeUndefined();
    expect(by.get('free')?.restsOn).toBeUndefined();
    // `free` rests on nothing. Its DEFINE leaves out the admitted proof, the theorems resting on it, and — once Coq,
    // reading that text on a second prover, refuses it — the definition built on it, `uses_again` (session 16; before,
    // the DEFINE kept it and was refused when the document ran: "The reference adm was not found").
    const free = by.get('free')?.converted;
    expect(free?.ok).toBe(true);
    expect(free?.ok && free.lines.some((l) => /Admitted|admit\b|Lemma uses\b|Lemma indirect\b|uses_again/.test(l))).toBe(false);
    // Before the admitted proof, conversions are offered as before (the DEFINE is the file's own prefix).
    expect(by.get('ok')?.converted.ok).toBe(true);
  });

  // Session 16: ▶ Convert's DEFINE, once a proof is left out, is read by Coq on a second prover with each converted
  // theorem after it; what Coq refuses there is left out too, a declaration or a theorem whole, and a theorem whose own
  // proof Coq refuses there is not offered (its reason is Coq's).
  it('what Coq refuses once an admitted proof is left out is left out too; a proof that needs it is refused with Coq\'s words', { timeout: 300_000 }, async () => {
    const text = [
      'Fixpoint f (n : nat) : nat. Admitted.',
      'Definition g (n : nat) := f n.',
      'Lemma free : True. Proof. exact I. Qed.',
      // The proof term never mentions f (Print Assumptions lists nothing), but the tactic names it.
      'Lemma h2 : True. Proof. let _ := constr:(f 0) in exact I. Qed.',
      'Lemma uses_h2 : True. Proof. exact h2. Qed.',
      'Section S. Variable x : nat. Definition k := g x. End S.',
      'Lemma last : 2 = 2. Proof. reflexivity. Qed.',
    ].join('\n');
    const r = await vFileDerivations(text, { timeoutMs: 30_000 });
    const by = new Map(r.theorems.map((t) => [t.name, t]));
    expect(by.get('free')?.converted).toEqual({ ok: true, lines: ['GOAL free "True"', 'APPLY exact I', 'END'] });
    expect(by.get('h2')?.restsOn).toBeUndefined();
    expect(by.get('h2')?.converted).toEqual({ ok: false, reason: 'its proof does not go through with what is not proved left out of it (f (line 1, admitted)) and what Coq then refused too (line 2): Coq refuses line 4: The reference f was not found in the current environment. — prove what it needs in the file first' });
    expect(by.get('uses_h2')?.converted).toEqual({ ok: false, reason: expect.stringMatching(/\(line 2, line 4\): Coq refuses line 5: The reference h2 was not found/) });
    // The section's refused definition is left out alone: the section still opens and closes around what Coq accepted.
    const last = by.get('last')?.converted;
    if (!last?.ok) throw new Error(JSON.stringify(last));
    expect(last.lines[0]).toMatch(/Section S\. Variable x : nat\. End S\."$/);
    expect(last.lines[0]).not.toMatch(/Definition (g|k)\b|h2/);
  });

  it('Time is judged by the sentence it wraps: a timed tactic reads and converts, a timed Redirect or Qed does not run', { timeout: 300_000 }, async () => {
    const policy = new SentencePolicy('read-only');
    expect(policy.judge('Time reflexivity.', true)).toBeUndefined();
    expect(policy.judge('Time Definition x := 1.', false)).toBeUndefined();
    expect(policy.judge('Time Redirect "x" Print nat.', false)).toMatch(/not allowed: Redirect/);
    expect(policy.judge('Time Time Redirect "x" Print nat.', false)).toMatch(/not allowed: Redirect/);
    expect(policy.judge('Time Qed.', true)).toMatch(/not allowed: Time Qed/);
    expect(policy.judge('Time admit.', true)).toBeUndefined(); // read-only: admitting is shown, as a bare admit is
    expect(new SentencePolicy('define').judge('Time admit.', true)).toMatch(/gives up/);
    const report = await vFileDerivations('Lemma a : 1 + 1 = 2.\nProof. Time reflexivity. Qed.\nLemma b : 2 + 2 = 4.\nProof. Time simpl. reflexivity. Qed.\n', { timeoutMs: 60_000 });
    expect(report.stopped).toBeUndefined();
    expect(report.skipped ?? []).toEqual([]);
    expect(report.theorems.map((t) => [t.name, t.ending])).toEqual([['a', 'Qed'], ['b', 'Qed']]);
    const converted = report.theorems[1]?.converted;
    expect(converted?.ok).toBe(true);
    // The step is the tactic itself; the earlier proof travels in the DEFINE as written (Time and all).
    expect(converted?.ok === true ? converted.lines : []).toEqual(['DEFINE "Lemma a : 1 + 1 = 2. Proof. Time reflexivity. Qed."', 'GOAL b "2 + 2 = 4"', 'APPLY simpl', 'APPLY reflexivity', 'END']);
  });
});
