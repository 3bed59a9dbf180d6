import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ShellProcess } from '../../cli/shell-process.ts';
import { vFileDerivations, type VFileReport } from './v-file-derivations.ts';
import { SentencePolicy } from './vernacular-policy.ts';

/**
 * Attacks (by someone who did not build it) on "rests on admitted …" in `.v` files opened as derivations,
 * with real coqidetop: every way a file can make an admitted constant that the later theorem then uses must
 * mark that theorem, and it must never convert.
 */
describe('admitted reliance in .v files (attack, real coqidetop)', () => {
  const run = (text: string): Promise<VFileReport> => vFileDerivations(text, { timeoutMs: 60_000 });
  const last = (r: VFileReport, name: string) => [...r.theorems].reverse().find((t) => t.name === name);

  const cases: [string, string][] = [
    ['an anonymous Goal, admitted, used by its Unnamed_thm', 'Goal False. Proof. admit. Admitted.\nLemma x : False. Proof. exact Unnamed_thm. Qed.'],
    ['the second lemma of a mutual Admitted', 'Lemma a (n : nat) : False with b (n : nat) : False. Proof. admit. admit. Admitted.\nLemma x : False. Proof. exact (b 0). Qed.'],
    ['an admitted lemma inside a functor, used through an application', 'Module Type T. End T.\nModule F (X : T). Lemma a : False. Proof. admit. Admitted. End F.\nModule I. End I.\nModule G := F I.\nLemma x : False. Proof. exact G.a. Qed.'],
    ['an admitted lemma used through a module alias', 'Module M. Lemma a : False. Proof. admit. Admitted. End M.\nModule N := M.\nLemma x : False. Proof. exact N.a. Qed.'],
    ['an admitted Program obligation', 'From Coq Require Import Program.\nProgram Definition p : {n : nat | n = 1} := 0.\nNext Obligation. admit. Admitted.\nLemma x : proj1_sig p = 1. Proof. exact (proj2_sig p). Qed.'],
    ['an admitted Definition (opened by Definition, not Lemma)', 'Definition a : False. Proof. admit. Admitted.\nLemma x : False. Proof. exact a. Qed.'],
    ['an admitted Instance', 'Class C := c : False.\nInstance i : C. Proof. admit. Admitted.\nLemma x : False. Proof. exact c. Qed.'],
  ];
  it('Include of a module with an admitted lemma runs (read-only); the theorem using the included copy is marked and never converts', { timeout: 300_000 }, async () => {
    const r = await run('Module M. Lemma a : False. Proof. admit. Admitted. End M.\nModule K. Include M. End K.\nLemma x : False. Proof. exact K.a. Qed.');
    expect(r.stopped).toBeUndefined();
    expect(r.theorems.map((t) => t.name)).toEqual(['a', 'x']);
    expect(last(r, 'x')?.restsOn?.length ?? 0).toBeGreaterThan(0);
    expect(last(r, 'x')?.converted.ok).toBe(false);
  });

  it('a Qed proof holding admit in a branch that never ran is shown proved by Coq but not converted (a document refuses it)', { timeout: 300_000 }, async () => {
    const r = await run('Lemma w : True. Proof. first [exact I | admit]. Qed.\nLemma v : True. Proof. exact I. Qed.');
    expect(r.stopped).toBeUndefined();
    expect(last(r, 'w')?.ending).toBe('Qed');
    expect(last(r, 'w')?.converted).toMatchObject({ ok: false, reason: expect.stringMatching(/line 1: .*gives up a goal/) });
    // A later theorem's DEFINE would carry w's proof and be refused: its conversion says so, naming w.
    expect(last(r, 'v')?.converted).toMatchObject({ ok: false, reason: expect.stringMatching(/earlier proof of w \(line 1\), which holds a tactic an Arbor document refuses \(line 1: .*gives up a goal/) });
    // Before w, nothing is in the way.
    const before = await run('Lemma v : True. Proof. exact I. Qed.\nLemma w : True. Proof. first [exact I | admit]. Qed.');
    expect(last(before, 'v')?.converted.ok).toBe(true);
    // A capitalised user tactic is a tactic when Coq's parse says so: it converts, and blocks nothing after it;
    // a command head shadowed by an Ltac of the same name is still the command: refused, so skipped (never run).
    const cap = await run('Ltac My_tac := exact I.\nLemma v : True. Proof. My_tac. Qed.\nLemma z : True. Proof. exact I. Qed.');
    expect(cap.stopped).toBeUndefined();
    expect(last(cap, 'v')?.converted).toMatchObject({ ok: true, lines: expect.arrayContaining(['APPLY My_tac']) });
    expect(last(cap, 'z')?.converted.ok).toBe(true);
    const shadow = await run('Ltac Undo := idtac.\nLemma v : True. Proof. Undo. exact I. Qed.');
    expect(shadow.skipped).toEqual([expect.objectContaining({ line: 2, reason: expect.stringMatching(/not allowed: Undo \(inside a proof\)/) as unknown })]);
  });

  it('Fail around effects is judged by what it wraps in every purpose; a Fail whose command succeeds stops with Coq\'s answer', { timeout: 300_000 }, async () => {
    for (const purpose of ['prelude', 'define', 'read-only'] as const) {
      for (const s of ['Fail Fail Redirect "x" Print nat.', 'Fail Load "x".', 'Fail Require "x".', 'Fail Set Hammer PredictPath "x".', 'Fail Timeout 1 Redirect "x" Print nat.', 'Fail Succeed Redirect "x" Print nat.', 'Fail  #[local] Set Hammer PredictPath "x".', 'Fail Declare ML Module "x".', 'Fail Add LoadPath "/" as R.', 'Fail\nRedirect "x" Print nat.', 'Fail Axiom c : False.']) {
        expect(new SentencePolicy(purpose).judge(s, false), `${purpose}: ${s}`).toMatch(/^parse error/);
      }
      expect(new SentencePolicy(purpose).judge('Fail Fail Add LoadPath "/" as R.', true), purpose).toMatch(/inside a proof/);
    }
    expect(new SentencePolicy('define').judge('Fail Fail Fail admit.', true)).toMatch(/gives up a goal/);
    for (const text of ['Lemma l : 1 = 1. Proof. reflexivity. Fail Qed. Qed.', 'Lemma m : False. Proof. admit. Fail Admitted. Admitted.', 'Fail Lemma p : True.', 'Fail Notation "x +++ y" := (x + y) (at level 50).']) {
      const r = await run(`${text}\nLemma z : True. Proof. exact I. Qed.`);
      expect(r.stopped, text).toMatchObject({ line: 1, message: expect.stringMatching(/has not failed/) });
      expect(r.theorems.some((t) => t.converted.ok || t.ending === 'Qed'), text).toBe(false);
    }
  });

  it('the theorem that converts runs to END in a real shell; its DEFINE and SCRIPT carry no admitted proof', { timeout: 300_000 }, async () => {
    const r = await run('Fail Definition d : nat := true.\nGoal False. Proof. admit. Admitted.\nLemma x : False. Proof. exact Unnamed_thm. Qed.\nLemma ok : 2 = 2. Proof. reflexivity. Qed.');
    const ok = last(r, 'ok')?.converted;
    expect(ok?.ok).toBe(true);
    const lines = ok?.ok ? ok.lines : [];
    expect(lines.some((l) => /admit|Admitted|Unnamed_thm/.test(l))).toBe(false);
    const shell = new ShellProcess(['--timeout', '20']);
    try {
      const rs = await shell.onFreshChannel(lines);
      expect(rs.map((x) => x.ERR)).toEqual(lines.map(() => ''));
      expect(rs.at(-1)?.ASSUMPTIONS).toEqual([]);
      expect(String(rs.at(-1)?.SCRIPT ?? '')).not.toMatch(/admit|Admitted/);
    } finally {
      expect(await shell.end()).toBe(0);
    }
  });

  for (const [what, text] of cases) {
    it(`${what}: the later theorem is marked and never converts`, { timeout: 300_000 }, async () => {
      const r = await run(text);
      expect(r.stopped, what).toBeUndefined();
      const x = last(r, 'x');
      expect(x?.ending, what).toBe('Qed');
      expect(x?.restsOn?.length ?? 0, what).toBeGreaterThan(0);
      expect(x?.converted.ok, what).toBe(false);
    });
  }
});

/** An unlucky user opening public `.v` files: a clear stop with a line and a reason, never a hang. */
describe('public .v files and runaway sentences (attack, real coqidetop)', () => {
  it('a stdlib file\'s own Axiom is skipped with the reason, and the first use stops the run saying so; Register runs', { timeout: 300_000 }, async () => {
    const classical = await vFileDerivations(readFileSync('/usr/lib/ocaml/coq/theories/Logic/Classical_Prop.v', 'utf8'), { timeoutMs: 30_000 });
    expect(classical.skipped).toEqual([expect.objectContaining({ line: 22, reason: expect.stringMatching(/Axiom \(assumptions are not allowed here\)/) as unknown })]);
    expect(classical.stopped).toMatchObject({ message: expect.stringMatching(/classic was not found.*skipped sentence at line 22/) });
    const bool = await vFileDerivations(readFileSync('/usr/lib/ocaml/coq/theories/Bool/Bool.v', 'utf8'), { timeoutMs: 30_000 });
    expect(bool.stopped).toBeUndefined();
    expect(bool.theorems.length).toBeGreaterThan(100);
    expect(bool.theorems.filter((t) => t.ending === 'Qed').every((t) => t.converted.ok)).toBe(true);
  });

  it('lines are the sentences\' own, after comments before them; a BOM is a blank; a control character stops the run at its line', { timeout: 300_000 }, async () => {
    const commented = await vFileDerivations('(* a form feed \f here *)\nLemma z : True. Proof. exact I. Qed.\n(* one\n   two *) Lemma y : True.\nProof. exact I. Qed.\n', { timeoutMs: 30_000 });
    expect(commented.stopped).toBeUndefined();
    expect(commented.theorems.map((t) => [t.name, t.line, t.endLine])).toEqual([['z', 2, 2], ['y', 4, 5]]);
    const bom = await vFileDerivations('\uFEFFLemma z : True. Proof. exact I. Qed.\n', { timeoutMs: 30_000 });
    expect(bom.stopped).toBeUndefined();
    expect(bom.theorems.map((t) => t.name)).toEqual(['z']);
    const control = await vFileDerivations('Lemma z : True. Proof. exact I. Qed.\nRequire Import String.\nDefinition s := "\u0001"%string.\n', { timeoutMs: 30_000 });
    expect(control.stopped).toMatchObject({ line: 3, message: expect.stringMatching(/control character U\+0001/) });
  });

  it('a tactic that never ends stops the run at its line when the per-sentence limit passes; the file after it never runs', { timeout: 300_000 }, async () => {
    const r = await vFileDerivations('Ltac spin := idtac; spin.\nLemma ok : True. Proof. exact I. Qed.\nLemma loop : True. Proof.\nspin. Qed.\nLemma after : True. Proof. exact I. Qed.\n', { timeoutMs: 5_000 });
    expect(r.stopped?.line).toBe(4);
    expect(r.stopped?.message).toMatch(/time|limit|stack overflow/i);
    expect(r.theorems.map((t) => t.name)).toEqual(['ok', 'loop']);
  });
});
