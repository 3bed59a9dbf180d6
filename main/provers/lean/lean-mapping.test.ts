import { describe, expect, it } from 'vitest';
import { ProverError } from '../../shell/prover-session.ts';
import { hammerPortfolio, librariesOf, planStep, suggestionIn, toOpenGoal } from './lean-mapping.ts';
import { renderLeanScript } from './lean-script.ts';

const core = librariesOf(['Init']);
const withMathlib = librariesOf(['Mathlib']);

describe('planStep (Arbor step → Pantograph)', () => {
  it('maps every step kind', () => {
    expect(planStep({ kind: 'have', name: 'h', expr: 'x + 0 = x' }, core)).toEqual({ kind: 'have', name: 'h', expr: 'x + 0 = x' });
    expect(planStep({ kind: 'obtain', name: 'h1', vars: ['k'], type: 'ℕ', conds: [{ name: 'hk', expr: 'm = 2 * k' }] }, core))
      .toEqual({ kind: 'obtain', name: 'h1', exists: '∃ (k : ℕ), (m = 2 * k)', pattern: '⟨k, hk⟩', facts: ['hk'] });
    expect(planStep({ kind: 'crush', rules: [] }, core)).toEqual({ kind: 'tactics', alternatives: ['simp_all'] });
    expect(planStep({ kind: 'crush', rules: ['Nat.add_comm', '← foo'] }, core)).toEqual({ kind: 'tactics', alternatives: ['simp_all [Nat.add_comm, ← foo]'] });
    expect(planStep({ kind: 'rule', rule: 'Nat.le_of_lt' }, core)).toEqual({ kind: 'tactics', alternatives: ['apply (Nat.le_of_lt)'] });
    expect(planStep({ kind: 'unfold', rule: 'double' }, core)).toEqual({ kind: 'tactics', alternatives: ['unfold double', 'rw [double]'], badRule: true });
    expect(planStep({ kind: 'unfold', rule: 'h x' }, core)).toMatchObject({ alternatives: ['unfold h x', 'rw [h x]'] });
    expect(planStep({ kind: 'unfold', rule: '(foo 1)' }, core)).toMatchObject({ alternatives: ['rw [(foo 1)]'] });
    expect(planStep({ kind: 'apply', tactic: '(intro x; simp)' }, core)).toEqual({ kind: 'tactics', alternatives: ['(intro x; simp)'] });
    expect(planStep({ kind: 'hammer', timeoutMs: 5000 }, core)).toMatchObject({ kind: 'hammer', timeoutMs: 5000 });
  });

  it('rejects injection as parse errors', () => {
    const bad = [
      () => planStep({ kind: 'apply', tactic: 'simp\nexact foo' }, core),
      () => planStep({ kind: 'have', name: 'h', expr: 'True\r' }, core),
      () => planStep({ kind: 'crush', rules: ['foo] <;> sorry; simp [bar'] }, core),
      () => planStep({ kind: 'rule', rule: 'foo) ; sorry ; (bar' }, core),
      () => planStep({ kind: 'have', name: 'h := sorry', expr: 'True' }, core),
      () => planStep({ kind: 'obtain', name: 'h', vars: ['x y'], conds: [{ name: 'hx', expr: 'x = 1' }] }, core),
    ];
    for (const f of bad) {
      expect(f).toThrow(ProverError);
      try { f(); } catch (err) { expect((err as ProverError).code).toBe('parse'); expect((err as Error).message).toMatch(/^parse error: /); }
    }
  });

  it('hammer portfolio: core deciders first, Mathlib tactics only with Mathlib, exact? last', () => {
    expect(hammerPortfolio(core)).toEqual(['assumption', 'rfl', 'decide', 'omega', 'simp_all', 'exact?']);
    expect(hammerPortfolio(withMathlib)).toEqual(['assumption', 'rfl', 'decide', 'omega', 'simp_all', 'norm_num', 'linarith', 'positivity', 'nlinarith', 'aesop', 'exact?']);
    expect(librariesOf(['Aesop'])).toEqual({ mathlib: false, aesop: true });
  });

  it('reads suggestions of exact?', () => {
    expect(suggestionIn(['Try this: exact Nat.le_refl n'])).toBe('exact Nat.le_refl n');
    expect(suggestionIn(['nothing'])).toBeUndefined();
  });
});

describe('toOpenGoal (Pantograph goal JSON → Arbor goal)', () => {
  // The goal of Pantograph's own `Test/Integration.lean` (`test_automatic_mode`, v0.3.4), one local added.
  const goal = {
    name: '_uniq.61', userName: 'inl', fragment: 'tactic' as const, target: { pp: 'q ∨ p', sexp: '((:c Or) (:fv _uniq.13) (:fv _uniq.10))' },
    vars: [
      { name: '_uniq.10', userName: 'p', isInaccessible: false, type: { pp: 'Prop', sexp: '(:sort 0)' } },
      { name: '_uniq.13', userName: 'q', isInaccessible: false, type: { pp: 'Prop', sexp: '(:sort 0)' } },
      { name: '_uniq.49', userName: 'h✝', isInaccessible: true, type: { pp: 'p', sexp: '(:fv _uniq.10)' } },
      { name: '_uniq.50', userName: 'h✝', isInaccessible: true, type: { pp: 'n = 0', sexp: '((:c Eq) (:c Nat) (:fv _uniq.13) ((:c OfNat.ofNat) (:c Nat) (:lit 0) ((:c instOfNatNat) (:lit 0))))' } },
    ],
  };

  it('splits variables from hypotheses and numbers repeated inaccessible names', () => {
    expect(toOpenGoal(goal, 1, new Set())).toEqual({
      goal: 'q ∨ p',
      context: [
        { kind: 'var', name: 'p', text: 'Prop' },
        { kind: 'var', name: 'q', text: 'Prop' },
        { kind: 'var', name: 'h✝1', text: 'p' },
        { kind: 'hyp', name: 'h✝2', text: 'n = 0' },
      ],
    });
    expect(toOpenGoal(goal, 1, new Set(['h✝'])).context[2]?.kind).toBe('hyp');
  });

  it('print mode 2: the seed\'s s-expressions, free variables by the names the context shows', () => {
    const printed = toOpenGoal(goal, 2, new Set());
    expect(printed.goal).toBe('(Or q p)');
    expect(printed.context).toEqual([
      { kind: 'var', name: 'p', text: 'Prop' },
      { kind: 'var', name: 'q', text: 'Prop' },
      { kind: 'var', name: 'h✝1', text: 'p' },
      // Classified by the pretty-printed type, printed in the seed's form.
      { kind: 'hyp', name: 'h✝2', text: '(Eq Nat q (OfNat.ofNat Nat 0 (instOfNatNat 0)))' },
    ]);
    expect(() => toOpenGoal({ ...goal, target: { pp: 'q ∨ p' } }, 2, new Set())).toThrow(/no s-expression/);
  });
});

describe('renderLeanScript', () => {
  it('nests have/obtain blocks, bullets splits, marks open goals sorry', () => {
    const script = renderLeanScript({
      imports: ['Init', 'Mathlib'], theoremName: 'arbor_goal', statement: '∀ (p q : Prop), p → q → p ∧ q', rootGoal: 'g0', openGoals: 1,
      ops: [
        { goal: 'g0', kind: 'tactic', text: 'intro p q hp hq', produced: ['g1'] },
        { goal: 'g1', kind: 'block', text: 'have h : p', produced: ['c1', 'g2'] },
        { goal: 'c1', kind: 'tactic', text: 'exact hp', produced: [] },
        { goal: 'g2', kind: 'tactic', text: 'constructor', produced: ['l', 'r'] },
        { goal: 'l', kind: 'tactic', text: 'exact h', produced: [] },
      ],
    });
    expect(script).toBe([
      'import Mathlib',
      '',
      '-- unfinished: 1 open goal, each marked `sorry`',
      'theorem arbor_goal : ∀ (p q : Prop), p → q → p ∧ q := by',
      '  intro p q hp hq',
      '  have h : p := by',
      '    exact hp',
      '  constructor',
      '  · exact h',
      '  · sorry',
      '',
    ].join('\n'));
  });
});
