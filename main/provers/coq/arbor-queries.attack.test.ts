import { describe, expect, it } from 'vitest';
import { quoted, useOwnCacheShell, useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-queries) on the plugin queries `Arbor_assumptions "NAME"`, `Arbor_sort "NAME"`, `Arbor_let_types` and
 * their readers (fix-display: 4294e55, 05be0c3, 9c36b38). Each case sends the same text twice, once with a name a
 * notation made a keyword (`land` after `Import Uint63`) and once with a plain name (`landx`): they must be judged alike.
 */
describe('keyword-named section premises (attack, real arbor-shell with the plugin)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  const premiseOf = async (name: string, type: string) => {
    const r = await real.session(['PRELUDE bare', `DEFINE "Require Uint63. Section S. Variable ${name} : ${type}. Import Uint63."`, 'GOAL g "0 = 1"', 'APPLY (exact ltac:(assumption))', 'END']);
    return r[4];
  };

  // Fixed (session 15): casts are stripped before the sort is computed. Broke: `Arbor_sort` (section-premises.ts) is not what `Check (H : (_ : Prop))` says. It asks Retyping for the sort
  // family of the declared type *as written*; a type that is a proposition up to conversion but whose head's own type is
  // `Type` (a cast to `(fun T => T) Type`, a beta-redex `(fun T : Type => T) (0 = 1)`) is `Type` to it, while Coq's
  // `Check (landx : (_ : Prop)).` accepts it. So the false hypothesis `land : 0 = 1` is reported as the section's
  // *variable* (PREMISES kind `variable`, CONDITIONAL "assuming the section's variable land …"), where the very same
  // text with `landx` says "hypothesis".
  it('a false hypothesis named `land` is a hypothesis, as `landx` is (not a "variable")', { timeout: 120_000 }, async () => {
    const type = '(0 = 1 : (fun T => T) Type)';
    const plain = await premiseOf('landx', type);
    expect(plain?.ERR).toBe('');
    expect(plain?.PREMISES).toEqual([expect.objectContaining({ kind: 'hypothesis', name: 'landx' })]);
    const keyword = await premiseOf('land', type);
    expect(keyword?.ERR).toBe('');
    expect(keyword?.PREMISES).toEqual([expect.objectContaining({ kind: 'hypothesis', name: 'land' })]);
  });
});

describe('Print Assumptions read string-aware (attack, real arbor-shell with the plugin)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);

  // Fixed (session 15): entries by layout only, never by quotes. Broke (4294e55, `parsePrintAssumptions` reading each entry's lines "inside a string literal" by counting `"`): a
  // document's only-printing notation may print a lone `"` (`Notation "x """ := (Q x) (only printing)`), so a premise's
  // type `(0) "` "opens a literal" that never closes. Every later entry's lines are then glued to that premise, and each
  // later entry keeps only the rest of its first line: a section variable prints `h` then `: 0 = 1` on the next line,
  // so the false hypothesis h is reported with an empty statement ("assuming the section's hypotheses z : (0) "⏎h⏎:
  // 0 = 1⏎Axioms:⏎int : Set and h : "), and z's statement holds h's type and the heading `Axioms:`. Before 4294e55
  // each line was its own. (A primitive literal makes `Arbor_references` answer `Unreadable`, so the judge reads Coq's
  // `Print Assumptions g` of the whole theorem, where the section variables come in one text.)
  it('a false section hypothesis printed after a lone `"` keeps its statement `0 = 1`', { timeout: 120_000 }, async () => {
    const r = await real.session([
      'PRELUDE bare',
      `DEFINE ${quoted('Require Import Uint63. Definition Q (n : nat) := n = n. Notation "x """ := (Q x) (at level 0, only printing). Section S. Variable h : 0 = 1. Variable z : Q 0.')}`,
      'GOAL g "0 = 1 /\\ Q 0 /\\ 0%uint63 = 0%uint63"',
      'APPLY (split; [assumption | split; [assumption | reflexivity]])',
      'END',
    ]);
    expect(r[4]?.ERR).toBe('');
    expect(r[4]?.PREMISES).toEqual(expect.arrayContaining([{ kind: 'hypothesis', name: 'h', statement: '0 = 1' }, { kind: 'hypothesis', name: 'z', statement: '(0) "' }]));
  });
});

describe('the judge\'s joint closure query read through a document\'s notation (attack, real arbor-shell with the plugin)', () => {
  // Each shell of this suite keeps its closed-library cache in a directory of its own (never the user's ~/.cache/arbor).
  const run = useOwnCacheShell(['--pool', '0', '--timeout', '30'], 'atk-queries-cache-');
  const admitted = ['PRELUDE bare', 'GOAL f "False"', 'APPLY (exact Coq.Compat.AdmitAxiom.proof_admitted)', 'END'];

  // Fixed (session 15): the plugin's Arbor_assumptions_all walks the names, no term is parsed; the cache file is now v2. Broke (soundness): `False` proved, ASSUMPTIONS []. The judge asks Coq for the joint closure of the theorem's direct
  // references (coq-closure-queries.ts `assumptionsOfAll`) by adding `Definition arbor_joint_closure : unit := let _ :=
  // @Coq.Compat.AdmitAxiom.proof_admitted in tt.` at the document's tip, where the document's own notations are in
  // force. A DEFINE'd parsing-only notation `'let' '_' ':=' x 'in' y := y` makes that definition `tt`; `Print
  // Assumptions arbor_joint_closure` says "Closed under the global context", and every reference — the axiom
  // `proof_admitted : False` included — is taken as closed. Worse, as the axiom is an installed library's constant,
  // the closed-library cache (closed-library-cache.ts) remembers it on disk: the second case, in a *new* shell with no
  // notation at all, proves `False` from `proof_admitted` with no assumption either (the cache here is this suite's own).
  it('a notation hijacking `let _ := x in y` does not make the admitted axiom closed', { timeout: 120_000 }, async () => {
    const r = await run([admitted[0] as string, `DEFINE ${quoted('Require Coq.Compat.AdmitAxiom. Notation "\'let\' \'_\' \':=\' x \'in\' y" := y (at level 200, x at level 200, y at level 200, only parsing).')}`, ...admitted.slice(1)]);
    expect(r[1]?.ERR).toBe('');
    expect(r[4]?.ERR).toMatch(/^unsound: depends on .*proof_admitted/);
  });

  it('after it, a new session still refuses `exact Coq.Compat.AdmitAxiom.proof_admitted` (the on-disk cache is not poisoned)', { timeout: 120_000 }, async () => {
    const r = await run([admitted[0] as string, `DEFINE ${quoted('Require Coq.Compat.AdmitAxiom.')}`, ...admitted.slice(1)]);
    expect(r[1]?.ERR).toBe('');
    expect(r[4]?.ERR).toMatch(/^unsound: depends on .*proof_admitted/);
  });
});

describe('let-bound hypotheses read with Arbor_let_types (attack, real arbor-shell with the plugin)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);

  // Fixed (session 15): the type is matched with any blank run equal to any other. Broke (05be0c3): the plugin says the type, yet the goal view shows the let-bound `x` as a *variable with an empty
  // type*. `splitHyp` takes Coq's type only when the flattened hypothesis text ends with ` : TYPE`; both are flattened by
  // `coqFlat`, which keeps layout inside string literals — and a document's only-printing notation prints a lone `"` in
  // the body (`let H : (0) " := eq_refl in …`), so in the goal's text everything after it counts as "inside a string":
  // the type's line breaks and indentation stay, while the plugin's type (printed alone, no quote before it) is
  // flattened to one line. No match; the fallback (last top-level ` : `, string-aware) finds none after the lone quote
  // either, so the type is ''. Needs a type long enough that Coq breaks its line.
  it('a let-bound hypothesis whose body prints a lone `"` keeps its type', { timeout: 120_000 }, async () => {
    const type = 'forall n m k : nat, n + m + k + n + m + k = n + m + k + n + m + k /\\ k + m + n + k + m + n + k + m + n = k + m + n + k + m + n + k + m + n';
    const r = await real.session([
      'PRELUDE bare',
      `DEFINE ${quoted('Definition Q (n : nat) := n = n. Notation "x """ := (Q x) (at level 0, only printing).')}`,
      'GOAL t "True"',
      `APPLY (pose (x := (fun (n m k : nat) => let _ := (eq_refl : Q 0) in conj (eq_refl (n + m + k + n + m + k)) (eq_refl (k + m + n + k + m + n + k + m + n))) : ${type}))`,
    ]);
    expect(r[3]?.ERR).toBe('');
    const ctxt = (r[3]?.RESPONSE as { ctxt: { vars: { name: string; type: string }[]; hyps: { name: string; expr: string }[] } }).ctxt;
    expect(ctxt.vars).toEqual([]);
    expect(ctxt.hyps).toEqual([{ name: 'x', expr: type }]);
  });
});
