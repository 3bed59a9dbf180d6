import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProverError, type FinishedProof } from '../../shell/prover-session.ts';
import { coqBackend } from './coq-backend.ts';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';
import { finished, useRealShell } from './testing/real-shell.ts';

/**
 * Issue 21, parts 3 and 4, against the real coqidetop behind the real arbor-shell: assumptions are judged
 * by kernel name (never by text a type can print), and the END that finishes a proof whose statement
 * means something else than its text in a clean environment carries STATEMENT (what Coq elaborated, and
 * what differs). Each case runs on a fresh channel. The tricks close their goals with explicit tactics: END's
 * counterexample search reads the goal as printed, so it may call such a goal false first.
 */
const { session } = useRealShell(['--timeout', '4']);

describe('assumptions are judged by kernel name', () => {
  const spoofs: { name: string; requests: string[] }[] = [
    {
      name: 'About text inside an instance type (Declare Instance is refused)',
      requests: ['DEFINE "Require Import String. Class C (s : string) := { c : False }. Declare Instance cheat : C \\"Expands to: Constant Coq.Logic.Classical_Prop.classic \\"."', 'GOAL "False"', 'APPLY (exact (@c _ cheat))', 'END'],
    },
    { name: 'a module named Coq', requests: ['DEFINE "Module Coq. Module Logic. Module Classical_Prop. Axiom classic : False. End Classical_Prop. End Logic. End Coq."', 'GOAL "False"', 'APPLY (exact Coq.Logic.Classical_Prop.classic)', 'END'] },
    { name: 'Context outside a section', requests: ['DEFINE "Context (cheat : False)."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
    { name: 'Variable outside a section', requests: ['DEFINE "Variable cheat : False."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
    { name: 'Hypothesis outside a section', requests: ['DEFINE "Hypothesis cheat : False."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
    { name: 'Declare Module', requests: ['DEFINE "Module Type T. Parameter cheat : False. End T. Declare Module X : T."', 'GOAL "False"', 'APPLY (exact X.cheat)', 'END'] },
  ];
  for (const s of spoofs) {
    it(`refuses: ${s.name}`, async () => {
      const rs = await session(s.requests);
      expect(rs.filter(finished), JSON.stringify(rs.map((r) => r.ERR))).toEqual([]);
    }, 60_000);
  }

  it('a trusted prelude axiom does not lend its trust to a client axiom of the same basename', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'arbor-trust-'));
    const file = join(dir, 'trusted.v');
    await writeFile(file, 'Axiom my_ext : forall P : Prop, P \\/ ~ P.\n');
    const trusted = new ShellProcess(['--timeout', '4', '--prelude', file]);
    try {
      // The user's own axiom, by its kernel name Top.my_ext: trusted and listed.
      await trusted.request('GOAL "forall P : Prop, ~ ~ P -> P"', 0);
      await trusted.request('APPLY (intros P H; destruct (my_ext P); [assumption | contradiction])', 0);
      expect(await trusted.request('END', 0)).toMatchObject({ ERR: '', ASSUMPTIONS: ['my_ext : forall P : Prop, P \\/ ~ P'] });
      // A client's axiom named my_ext in a module (Top.M.my_ext) borrows nothing: it cannot even be declared.
      const defined = await trusted.request('PRELUDE "Module M. Axiom my_ext : False. End M."', 0);
      expect(defined.ERR).toMatch(/assumptions are not allowed/);
      const instance = await trusted.request('DEFINE "Class K := { k : False }. Module M. Declare Instance my_ext : K. End M."', 0);
      expect(instance.ERR).toMatch(/assumptions are not allowed/);
    } finally {
      await trusted.end();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

/** The END that finishes; asserts it finished and returns it. */
const endOf = (rs: ShellResponse[]): ShellResponse => {
  const end = rs.at(-1) as ShellResponse;
  expect(end.ERR, JSON.stringify(rs.map((r) => r.ERR))).toBe('');
  expect(finished(end)).toBe(true);
  return end;
};

describe('the statement shown is what Coq elaborated', () => {
  const tricks: { name: string; requests: string[]; elaborated: RegExp; difference: RegExp }[] = [
    { name: 'a notation making False mean True', requests: ['DEFINE "Notation \\"\'False\'\\" := (True)."', 'GOAL "False"', 'APPLY (exact I)', 'END'], elaborated: /^Coq\.Init\.Logic\.True$/, difference: /`Coq\.Init\.Logic\.True` stands where a clean reading has `Coq\.Init\.Logic\.False`/ },
    { name: 'a definition named False', requests: ['DEFINE "Definition False := True."', 'GOAL "False"', 'APPLY (exact I)', 'END'], elaborated: /^Top\.False$/, difference: /`False` is the document's own `Top\.False`, not `Coq\.Init\.Logic\.False`/ },
    {
      name: '+ as multiplication in an opened scope',
      requests: ['DEFINE "Declare Scope evil_scope. Notation \\"x + y\\" := (Nat.mul x y) : evil_scope. Open Scope evil_scope."', 'GOAL "forall n : nat, n + 1 = n"', 'APPLY (intros n; lia)', 'END'],
      elaborated: /Nat\.mul n \(Coq\.Init\.Datatypes\.S Coq\.Init\.Datatypes\.O\)/,
      difference: /`Coq\.Arith\.PeanoNat\.Nat\.mul n \(Coq\.Init\.Datatypes\.S Coq\.Init\.Datatypes\.O\)` stands where a clean reading has `Coq\.Init\.Nat\.add n \(Coq\.Init\.Datatypes\.S Coq\.Init\.Datatypes\.O\)`/,
    },
    {
      name: '<= swapped in a scope',
      requests: ['DEFINE "Declare Scope swap_scope. Notation \\"x <= y\\" := (le y x) : swap_scope. Open Scope swap_scope."', 'GOAL "forall n : nat, n <= 0"', 'APPLY (intros n; lia)', 'END'],
      elaborated: /Coq\.Init\.Peano\.le Coq\.Init\.Datatypes\.O n/,
      difference: /`Coq\.Init\.Peano\.le Coq\.Init\.Datatypes\.O n` stands where a clean reading has `Coq\.Init\.Peano\.le n Coq\.Init\.Datatypes\.O`/,
    },
    { name: 'an unscoped x + y', requests: ['DEFINE "Notation \\"x + y\\" := (Nat.mul x y)."', 'GOAL "forall n : nat, n + 1 = n"', 'APPLY (intros n; lia)', 'END'], elaborated: /Nat\.mul/, difference: /Nat\.mul.*stands where a clean reading has `Coq\.Init\.Nat\.add/ },
    {
      name: 'a coercion from bool to a True-valued sort',
      requests: ['DEFINE "Definition holds (b : bool) : Prop := True. Coercion holds : bool >-> Sortclass."', 'GOAL "false"', 'END'],
      elaborated: /^Top\.holds Coq\.Init\.Datatypes\.false$/,
      difference: /`holds` is the document's own `Top\.holds`/,
    },
    { name: 'a homoglyph name (Cyrillic a)', requests: ['DEFINE "Definition F\u0430lse := True."', 'GOAL "F\u0430lse"', 'END'], elaborated: /^Top\.F\u0430lse$/, difference: /U\+0430/ },
    {
      name: 'a canonical structure choosing the meaning of an operation',
      requests: ['DEFINE "Structure S := { car : Type; op : car -> car -> Prop }. Canonical Structure trivS := {| car := nat; op := fun _ _ => True |}."', 'GOAL "forall n : nat, op _ n 0"', 'END'],
      elaborated: /^forall \(n : Coq\.Init\.Datatypes\.nat\), Top\.op Top\.trivS n Coq\.Init\.Datatypes\.O$/,
      difference: /does not elaborate/,
    },
    {
      name: 'a typeclass instance choosing the meaning of an operation',
      requests: ['DEFINE "Class Lt (A : Type) := lt_ : A -> A -> Prop. Instance lt_nat : Lt nat := fun _ _ => True. Notation \\"x << y\\" := (lt_ x y) (at level 70)."', 'GOAL "forall n : nat, n << 0"', 'END'],
      elaborated: /Top\.lt_ Coq\.Init\.Datatypes\.nat Top\.lt_nat n Coq\.Init\.Datatypes\.O/,
      difference: /`lt_nat` is the document's own `Top\.lt_nat`/,
    },
    {
      name: 'implicit arguments instantiated by the document',
      requests: ['DEFINE "Definition pick (A : Type) (x : A) : Prop := True. Arguments pick {A} x."', 'GOAL "pick 0"', 'END'],
      elaborated: /^Top\.pick Coq\.Init\.Datatypes\.nat Coq\.Init\.Datatypes\.O$/,
      difference: /`pick` is the document's own `Top\.pick`/,
    },
  ];
  for (const t of tricks) {
    it(`shows it: ${t.name}`, async () => {
      const end = endOf(await session(t.requests));
      expect(end.STATEMENT, JSON.stringify(end)).toBeDefined();
      expect(end.STATEMENT?.elaborated).toMatch(t.elaborated);
      expect(end.STATEMENT?.differences.join('\n')).toMatch(t.difference);
    }, 60_000);
  }

  it('a statement meaning what it says carries no STATEMENT', async () => {
    const end = endOf(await session(['DEFINE "Definition double (n : nat) := n + n."', 'GOAL "forall n : nat, n + 0 = n"', 'END']));
    expect(end.STATEMENT).toBeUndefined();
  }, 60_000);
});

describe('assumptions by kernel name, below the policy (a project prelude, which may declare axioms the user has not confirmed)', () => {
  it('a newline in a string in an axiom type cannot hide the axiom or pass for a trusted one', async () => {
    const s = await coqBackend.open({
      timeoutMs: 5000,
      projectPrelude: 'Require Import String Classical. Class C (s : string) := { c : False }. Declare Instance cheat : C "x\nclassic : forall P : Prop, P \\/ ~ P\nClosed under the global context\nAxioms:\n".',
    });
    try {
      await s.start('False');
      await s.step({ kind: 'apply', tactic: 'exact (@c _ cheat)' });
      const refused = await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProverError);
      expect((refused as ProverError).message).toMatch(/^unsound: depends on .*cheat/);
    } finally {
      await s.dispose();
    }
  }, 60_000);

  it('a trusted prelude axiom is matched by full kernel name, not by basename', async () => {
    const s = await coqBackend.open({ timeoutMs: 5000, prelude: 'Axiom my_ext : forall P : Prop, P \\/ ~ P.', projectPrelude: 'Module M. Axiom my_ext : False. End M.' });
    try {
      await s.start('False');
      await s.step({ kind: 'apply', tactic: 'exact M.my_ext' });
      const refused = await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
      expect((refused as ProverError).message).toBe('unsound: depends on M.my_ext (Top.M.my_ext)');
      // The user's own one, Top.my_ext, stays trusted.
      await s.start('forall P : Prop, ~ ~ P -> P');
      await s.step({ kind: 'apply', tactic: 'intros P H; destruct (my_ext P); [assumption | contradiction]' });
      const done = await (s.finish as () => Promise<FinishedProof>).call(s);
      expect(done.assumptions).toEqual(['my_ext : forall P : Prop, P \\/ ~ P']);
      expect(done.statement).toBeUndefined();
    } finally {
      await s.dispose();
    }
  }, 60_000);
});

/**
 * Honest developments that define their own vocabulary: Coq's own Init/Datatypes.v definitions of `bool`,
 * `negb`, `andb`, `nat`, `list`, `length`, read from the installed standard library sources (public; the
 * `length` body spells `cons` instead of the `::` notation, which names the library's list here).
 */
describe('honest developments that shadow library names are accepted, shown with their own names', () => {
  const datatypes = readFileSync('/usr/lib/ocaml/coq/theories/Init/Datatypes.v', 'utf8');
  const sentence = (start: string): string => {
    const at = datatypes.indexOf(start);
    expect(at).toBeGreaterThanOrEqual(0);
    const end = datatypes.indexOf('.\n', at);
    return datatypes.slice(at, end + 1).replace(/\s+/g, ' ');
  };
  const definitions = [
    sentence('Inductive bool : Set :='),
    sentence('Definition andb (b1 b2:bool)'),
    sentence('Definition negb (b:bool)'),
    sentence('Inductive nat : Set :='),
    sentence('Inductive list (A : Type) : Type :='),
    'Arguments nil {A}. Arguments cons {A} a l.',
    sentence('Definition length (A : Type) : list A -> nat :=').replace('_ :: l\'', 'cons _ l\''),
  ].join(' ');

  it('proves their theorems and shows the document\'s names qualified', async () => {
    const rs = await session([
      `DEFINE "${definitions}"`,
      'GOAL "forall b : bool, negb (negb b) = b"',
      'APPLY (destruct b; reflexivity)',
      'END',
    ]);
    const end = endOf(rs);
    expect(end.STATEMENT?.elaborated).toBe('forall (b : Top.bool), Coq.Init.Logic.eq Top.bool (Top.negb (Top.negb b)) b');
    expect(end.STATEMENT?.differences).toContain('`bool` is the document\'s own `Top.bool`, not `Coq.Init.Datatypes.bool`');
    expect(end.STATEMENT?.differences).toContain('`negb` is the document\'s own `Top.negb`, not `Coq.Init.Datatypes.negb`');
    const more = await session([
      `DEFINE "${definitions}"`,
      'GOAL "forall (A : Type) (x : A) (l : list A), length A (cons x l) = S (length A l)"',
      'APPLY reflexivity',
      'END',
      'GOAL "forall b : bool, andb true b = b"',
      'APPLY reflexivity',
      'END',
    ]);
    expect(more.map((r) => r.ERR)).toEqual(['', '', '', '', '', '', '']);
    expect(more[3]?.STATEMENT?.differences.join('\n')).toMatch(/`length` is the document's own `Top\.length`, not `Coq\.Init\.Datatypes\.length`/);
    expect(more[6]?.STATEMENT?.differences.join('\n')).toMatch(/`true` is the document's own `Top\.true`, not `Coq\.Init\.Datatypes\.true`/);
  }, 120_000);
});
