import { describe, expect, it } from 'vitest';
import type { PolicyPurpose } from './vernacular-policy.ts';
import { checkUntrustedVernacular } from './vernacular-policy.ts';

const ALL: PolicyPurpose[] = ['prelude', 'define', 'project', 'fidelity-context'];

describe('checkUntrustedVernacular: the one gate for untrusted Coq text', () => {
  const allowed = [
    'Require Import ZArith. (* arithmetic *)\nDefinition double (n : nat) := n + n.',
    'From Coq Require Import List. #[local] Hint Resolve app_nil_r : core. Local Open Scope Z_scope.',
    'Fixpoint sum (n : nat) : nat := match n with 0 => 0 | S k => S k + sum k end.',
    'Definition s := "a. Load x.".',
    'Inductive tree := Leaf | Node (l r : tree).',
    'Record point := { px : nat; py : nat }.',
    'Notation "x ⊕ y" := (x + y) (at level 50).',
    'Section S. Variable A : Type. Definition id' + "'" + ' (a : A) := a. End S.',
    'Module M. Definition one := 1. End M. Import M.',
    'Set Implicit Arguments. Unset Strict Implicit.',
    '#[universes(polymorphic)] Definition idu (A : Type) (a : A) := a.',
    'Ltac my_tac := intros; auto.',
    'Arguments double n%nat_scope.',
    'Create HintDb mydb. Hint Constructors tree : mydb.',
    'Class Default (A : Type) := def : A. #[global] Instance nat_default : Default nat := 0.',
  ];
  for (const text of allowed) {
    it(`allows declarations: ${text.slice(0, 50)}`, () => {
      for (const p of ALL) expect(checkUntrustedVernacular(text, p), p).toBeUndefined();
    });
  }

  // Every entry point, every one of these: files, load path, plugins, process, kernel bypasses, output.
  const refused: [string, RegExp][] = [
    ['Redirect "/tmp/x" Print nat.', /not allowed: Redirect/],
    ['Local Redirect "x" Print nat.', /not allowed: Redirect/],
    ['Require Import Arith. Load "/etc/passwd".', /not allowed: Load/],
    ['Load evil.', /not allowed: Load/],
    ['Cd "/tmp".', /not allowed: Cd/],
    ['Add LoadPath "/tmp" as Evil.', /not allowed: Add/],
    ['Add Rec LoadPath "/tmp".', /not allowed: Add/],
    ['Add ML Path "/tmp".', /not allowed: Add/],
    ['Declare ML Module "evil".', /not allowed: Declare ML/],
    ['Set Hammer PredictPath "touch /tmp/x;".', /option not allowed: Hammer PredictPath/],
    ['Set Hammer ATPLimit 1.', /option not allowed/],
    ['Set Extraction Output Directory "/tmp".', /option not allowed/],
    ['Extraction "/tmp/x.ml" nat.', /not allowed: Extraction/],
    ['Separate Extraction nat.', /not allowed: Separate/],
    ['Drop.', /not allowed: Drop/],
    ['Unset Guard Checking.', /option not allowed: Guard Checking/],
    ['Unset Positivity Checking.', /option not allowed/],
    ['Unset Universe Checking.', /option not allowed/],
    ['#[bypass_check(guard)] Fixpoint loop (n : nat) : False := loop n.', /attribute not allowed/],
    ['#[bypass_check(positivity)] Inductive Bad := mk : (Bad -> False) -> Bad.', /attribute not allowed/],
    ['#[ local , bypass_check(universes) ] Definition U := Type.', /attribute not allowed/],
    ['Set Warnings "-all".', /option not allowed/],
    ['Set Printing All.', /option not allowed/],
    ['Set Default Goal Selector "all".', /option not allowed/],
    ['Time Redirect "x" Print nat.', /not allowed: Time/],
    ['Fail Load x.', /not allowed: Fail/],
    ['Timeout 1 Load x.', /not allowed: Timeout/],
    ['Succeed Load x.', /not allowed: Succeed/],
    ['Lemma cheat : False. Admitted.', /not allowed: Lemma/],
    ['Definition x : nat. exact 1. Defined.', /not allowed: exact/],
    ['Definition x : False. Admitted.', /not allowed: Admitted/],
    ['Require "/tmp/evil".', /module name not allowed/],
    ['From "/tmp" Require Import x.', /module name not allowed/],
    ['Hint Extern 0 => give_up : core.', /gives up goals/],
    ['Hint Extern 0 (False) => admit : core.', /gives up goals/],
    ['Print Assumptions nat.', /not allowed: Print/],
    ['Obligation Tactic := idtac.', /not allowed: Obligation/],
    ['Proof. Qed.', /not allowed: Proof/],
    ['Abort.', /not allowed: Abort/],
    ['Section S. Definition a := 1.', /leaves a section open/],
    ['Require Import Arith', /does not end with "."/],
    ['Definition x := 1. (* open', /unclosed comment/],
    ['Definition s := "open.', /unclosed string/],
    ['Definition x := 1.\u0000', /control characters/],
  ];
  for (const [text, why] of refused) {
    it(`refuses ${text.slice(0, 50)}`, () => {
      for (const p of ALL) expect(checkUntrustedVernacular(text, p), p).toMatch(why);
    });
  }

  it('refuses assumptions where they are not the purpose', () => {
    for (const text of ['Axiom cheat : False.', 'Parameter x : nat.', 'Conjecture c : 1 = 2.', 'Hypothesis h : False.', 'Variable v : False.', 'Context (h : False).',
      // Assumptions in disguise (issue 21): an instance with no body is an axiom, a declared module a bundle of them.
      'Class C := { c : False }. Declare Instance cheat : C.', 'Section S. Declare Instance cheat : C. End S.', 'Module Type T. End T. Declare Module X : T.']) {
      expect(checkUntrustedVernacular(text, 'prelude')).toMatch(/assumptions are not allowed/);
      expect(checkUntrustedVernacular(text, 'define')).toMatch(/assumptions are not allowed/);
      // A fidelity context declares parameters and hypotheses; a project prelude the user opened may declare axioms.
      expect(checkUntrustedVernacular(text, 'fidelity-context')).toBeUndefined();
      expect(checkUntrustedVernacular(text, 'project')).toBeUndefined();
    }
    // Section variables are discharged, not assumed.
    expect(checkUntrustedVernacular('Section S. Variable A : Type. Hypothesis h : A = A. End S.', 'prelude')).toBeUndefined();
  });

  it('refuses huge text before parsing it', () => {
    expect(checkUntrustedVernacular(`Definition x := ${'1 + '.repeat(100_000)}1.`, 'define')).toMatch(/too large/);
  });
});
