import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyPurpose } from './vernacular-policy.ts';
import { CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText } from './coq-text-runner.ts';
import { markArborPlugin } from './arbor-plugin.ts';
import { pluginOptions } from './testing/real-client.ts';

const ALL: PolicyPurpose[] = ['prelude', 'define', 'project', 'fidelity-context'];

let client: CoqideTopClient;
let start: number;
beforeAll(async () => {
  // As a channel's coqidetop runs: with Arbor's plugin, which the policy asks where an assumption stands.
  client = await CoqideTopClient.start(pluginOptions());
  markArborPlugin(client);
  start = client.tip;
});
afterAll(() => client.dispose());

/** The policy's refusal of `text` for `purpose` as Coq delimits it (real coqidetop), or undefined; the document is back at the start. */
async function checkUntrustedVernacular(text: string, purpose: PolicyPurpose): Promise<string | undefined> {
  try {
    await runCoqText(client, text, { purpose, timeoutMs: 10_000 });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    if (client.tip !== start) await client.editAt(start);
  }
}

describe('the one gate for untrusted Coq text, judging the sentences Coq delimits', () => {
  const allowed = [
    'Require Import ZArith. (* arithmetic *)\nDefinition double (n : nat) := n + n.',
    'From Coq Require Import List. #[local] Hint Resolve app_nil_r : core. Local Open Scope list_scope.',
    'Fixpoint sum (n : nat) : nat := match n with 0 => 0 | S k => S k + sum k end.',
    'Require Import String. Definition s := "a. Load x. (* ""*)"" "%string.',
    'Inductive tree := Leaf | Node (l r : tree).',
    'Record point := { px : nat; py : nat }.',
    'Notation "x ⊕ y" := (x + y) (at level 50).',
    'Section S. Variable A : Type. Definition id' + "'" + ' (a : A) := a. End S.',
    'Module M. Definition one := 1. End M. Import M.',
    'Set Implicit Arguments. Unset Strict Implicit.',
    '#[local] Set Warnings "-notation-overridden".',
    '#[universes(polymorphic)] Definition idu (A : Type) (a : A) := a.',
    'Ltac my_tac := intros; auto.',
    'Definition double (n : nat) := n + n. Arguments double n%nat_scope.',
    'Inductive tree := Leaf | Node (l r : tree). Create HintDb mydb. Hint Constructors tree : mydb.',
    'Class Default (A : Type) := def : A. #[global] Instance nat_default : Default nat := 0.',
  ];
  for (const text of allowed) {
    it(`allows declarations: ${text.slice(0, 50)}`, async () => {
      for (const p of ALL) expect(await checkUntrustedVernacular(text, p), p).toBeUndefined();
    });
  }

  // Every entry point, every one of these: files, load path, plugins, process, kernel bypasses, output.
  const refused: [string, RegExp][] = [
    ['Redirect "/tmp/x" Print nat.', /not allowed: Redirect/],
    ['Local Redirect "x" Print nat.', /not allowed: Redirect|parse error: Syntax error/],
    ['Require Import Arith. Load "/etc/passwd".', /not allowed: Load/],
    ['Load evil.', /not allowed: Load/],
    ['Cd "/tmp".', /not allowed: Cd/],
    ['Add LoadPath "/tmp" as Evil.', /not allowed: Add/],
    ['Add Rec LoadPath "/tmp" as Evil.', /not allowed: Add/],
    ['Add ML Path "/tmp".', /not allowed: Add/],
    ['Declare ML Module "evil".', /not allowed: Declare ML/],
    ['Set Hammer PredictPath "touch /tmp/x;".', /option not allowed: Hammer PredictPath/],
    ['Set Hammer ATPLimit 1.', /option not allowed/],
    ['Set Extraction Output Directory "/tmp".', /option not allowed/],
    ['Require Extraction. Extraction "/tmp/x.ml" nat.', /not allowed: Extraction/],
    ['Require Extraction. Separate Extraction nat.', /not allowed: Separate/],
    ['Drop.', /not allowed: Drop|parse error: Syntax error/],
    ['Unset Guard Checking.', /option not allowed: Guard Checking/],
    ['Unset Positivity Checking.', /option not allowed/],
    ['Unset Universe Checking.', /option not allowed/],
    ['#[bypass_check(guard)] Fixpoint loop (n : nat) : False := loop n.', /attribute not allowed/],
    ['#[bypass_check(positivity)] Inductive Bad := mk : (Bad -> False) -> Bad.', /attribute not allowed/],
    ['#[ local , bypass_check(universes) ] Definition U := Type.', /attribute not allowed/],
    ['Set Warnings "-all".', /option not allowed/],
    ['Set Warnings "-notation-overridden,-deprecated".', /option not allowed/],
    ['Set Warnings "+notation-overridden".', /option not allowed/],
    ['Set Printing All.', /option not allowed/],
    ['Set Default Goal Selector "all".', /option not allowed/],
    // `Time` and `Fail` are judged by what they wrap.
    ['Time Redirect "x" Print nat.', /not allowed: Redirect/],
    ['Time Fail Time Load x.', /not allowed: Load/],
    ['Fail Load x.', /not allowed: Load/],
    ['Fail Fail Redirect "x" Print nat.', /not allowed: Redirect/],
    ['Lemma l : True. Proof. Fail Cd "/tmp". exact I. Qed.', /not allowed: Cd \(inside a proof\)/],
    ['Lemma l : False. Proof. Fail admit. Admitted.', /not allowed: admit/],
    ['Timeout 1 Load x.', /not allowed: Timeout/],
    ['Succeed Load x.', /not allowed: Succeed/],
    ['Lemma cheat : False. Admitted.', /not allowed: Admitted/],
    ['Lemma cheat : False. Proof. admit. Qed.', /not allowed: admit/],
    ['Lemma cheat : False. Proof. give_up. Qed.', /not allowed: give_up/],
    ['Lemma l : True. Proof. Redirect "/tmp/arbor-x" Print nat. exact I. Qed.', /not allowed: Redirect \(inside a proof\)/],
    ['Lemma l : True. Proof. Set Hammer PredictPath "touch /tmp/x;". exact I. Qed.', /not allowed: Set \(inside a proof\)/],
    ['Lemma l : True. Proof. Cd "/tmp". exact I. Qed.', /not allowed: Cd/],
    ['Lemma l : True. Proof. exact I.', /leaves a proof open/],
    ['Definition x : False. Admitted.', /not allowed: Admitted/],
    ['Require "/tmp/evil".', /module name not allowed|parse error: Syntax/],
    ['From "/tmp" Require Import x.', /module name not allowed|parse error: Syntax/],
    ['Hint Extern 0 => give_up : core.', /gives up goals/],
    ['Hint Extern 0 (False) => admit : core.', /gives up goals/],
    ['Print Assumptions nat.', /not allowed: Print/],
    ['Obligation Tactic := admit.', /obligation tactic not allowed: it gives up goals/],
    ['Proof. Qed.', /not allowed: Proof/],
    ['Abort.', /not allowed: Abort/],
    ['Section S. Definition a := 1.', /leaves a section open/],
    ['Section S. End S. End S.', /closes a section or module it did not open|parse error/],
    ['Require Import Arith', /parse error: Syntax error: '.' expected/],
    ['Definition x := 1. (* open', /parse error: Syntax Error: Lexer: Unterminated comment/],
    ['Definition s := "open.', /parse error: Syntax Error: Lexer: Unterminated string/],
    ['Definition x := 1.\u0000', /control characters/],
  ];
  for (const [text, why] of refused) {
    it(`refuses ${text.slice(0, 50)}`, async () => {
      for (const p of ALL) expect(await checkUntrustedVernacular(text, p), p).toMatch(why);
    });
  }

  it('refuses assumptions where they are not the purpose', async () => {
    for (const text of ['Axiom cheat : False.', 'Parameter x : nat.', 'Conjecture c : 1 = 2.', 'Hypothesis h : False.', 'Variable v : False.', 'Context (h : False).',
      // Assumptions in disguise (issue 21): an instance with no body is an axiom, a declared module a bundle of them.
      'Class C := { c : False }. Declare Instance cheat : C.', 'Section S. Class C := { c : False }. Declare Instance cheat : C. End S.', 'Module Type T. End T. Declare Module X : T.']) {
      expect(await checkUntrustedVernacular(text, 'prelude')).toMatch(/assumptions are not allowed/);
      expect(await checkUntrustedVernacular(text, 'define')).toMatch(/assumptions are not allowed/);
      // A fidelity context declares parameters and hypotheses; a project prelude the user opened may declare axioms.
      expect(await checkUntrustedVernacular(text, 'fidelity-context')).toBeUndefined();
      expect(await checkUntrustedVernacular(text, 'project')).toBeUndefined();
    }
    // Section variables are discharged, not assumed.
    expect(await checkUntrustedVernacular('Section S. Variable A : Type. Hypothesis h : A = A. End S.', 'prelude')).toBeUndefined();
  });

  // A capitalised user tactic in a proof (coq-tricks' `RelInstance_t.`): allowed when Coq's own parse reads the
  // sentence as a tactic call starting with that name; a command head stays a command even when an Ltac of the
  // same name exists (command heads are not keywords), and is refused as before.
  it('allows a capitalised Ltac in a proof only when Coq parses the sentence as a tactic', async () => {
    const ltac = 'Ltac RelInstance_t := intros; exact I.';
    for (const p of ALL) {
      expect(await checkUntrustedVernacular(`${ltac} Lemma l : True. Proof. RelInstance_t. Qed.`, p), p).toBeUndefined();
      expect(await checkUntrustedVernacular(`${ltac} Lemma l : True /\\ True. Proof. split; RelInstance_t. Qed.`, p), p).toBeUndefined();
    }
    const shadowed: [string, RegExp][] = [
      ['Ltac Show := idtac. Lemma l : True. Proof. Show. exact I. Qed.', /not allowed: Show \(inside a proof\)/],
      ['Ltac Redirect := idtac. Lemma l : True. Proof. Redirect "arbor-x" Print nat. exact I. Qed.', /not allowed: Redirect \(inside a proof\)/],
      ['Ltac Guarded := idtac. Lemma l : True. Proof. Guarded. exact I. Qed.', /not allowed: Guarded \(inside a proof\)/],
      ['Ltac Undo := idtac. Lemma l : True. Proof. Undo. exact I. Qed.', /not allowed: Undo \(inside a proof\)/],
      ['Ltac Unfocus := idtac. Lemma l : True. Proof. Unfocus. exact I. Qed.', /not allowed: Unfocus \(inside a proof\)/],
      ['Ltac Optimize := idtac. Lemma l : True. Proof. Optimize Proof. exact I. Qed.', /not allowed: Optimize \(inside a proof\)/],
      ['From Hammer Require Import Hammer. Ltac Hammer_cleanup := idtac. Lemma l : True. Proof. Hammer_cleanup. exact I. Qed.', /not allowed: Hammer_cleanup \(inside a proof\)/],
      ['Ltac Cheat := admit. Lemma l : False. Proof. Cheat. Qed.', /Attempt to save a proof with given up goals|not allowed/],
    ];
    for (const [text, why] of shadowed) for (const p of ALL) expect(await checkUntrustedVernacular(text, p), `${p}: ${text}`).toMatch(why);
  });

  it('refuses huge text before parsing it', async () => {
    expect(await checkUntrustedVernacular(`Definition x := ${'1 + '.repeat(100_000)}1.`, 'define')).toMatch(/too large/);
  });
});
