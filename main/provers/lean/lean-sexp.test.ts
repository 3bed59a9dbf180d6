import { describe, expect, it } from 'vitest';
import { leanSexpToSeed, leanSexpToSeedOrRaw } from './lean-sexp.ts';

const none = new Map<string, string>();

// Inputs in the grammar of Pantograph's `serializeExpressionSexp` (`Pantograph/Delate.lean`, v0.3.4); the
// first ones are the documented outputs of its `Test/Delate.lean` and `Test/Integration.lean`.
describe('Pantograph s-expressions → the seed\'s print mode 2', () => {
  it('binders lose their names and kinds; bound variables become _n de Bruijn indices', () => {
    expect(leanSexpToSeed('(:forall a (:c Nat) (:forall a (:c Nat) (:c Nat)))', none)).toBe('(\\<forall> Nat (\\<forall> Nat Nat))');
    expect(leanSexpToSeed('(:forall n (:c Nat) ((:c Eq) (:c Nat) ((:c HAdd.hAdd) (:c Nat) (:c Nat) (:c Nat) ((:c instHAdd) (:c Nat) (:c instAddNat)) 0 ((:c OfNat.ofNat) (:c Nat) (:lit 1) ((:c instOfNatNat) (:lit 1)))) ((:c Nat.succ) 0)))', none))
      .toBe('(\\<forall> Nat (Eq Nat (HAdd.hAdd Nat Nat Nat (instHAdd Nat instAddNat) _0 (OfNat.ofNat Nat 1 (instOfNatNat 1))) (Nat.succ _0)))');
    expect(leanSexpToSeed('(:forall n (:c Nat) (:forall m (:c Nat) (:forall h ((:c LE.le) (:c Nat) (:c instLENat) ((:c Nat.succ) 1) 0) ((:c LE.le) (:c Nat) (:c instLENat) 2 1)) :i) :i)', none))
      .toBe('(\\<forall> Nat (\\<forall> Nat (\\<forall> (LE.le Nat instLENat (Nat.succ _1) _0) (LE.le Nat instLENat _2 _1))))');
    expect(leanSexpToSeed('(:lambda p (:sort 0) (:lambda q (:sort 0) (:lambda k ((:c And) 1 0) ((:c And.right) _ _ 0)) :i) :i)', none))
      .toBe('(\\<lambda> Prop (\\<lambda> Prop (\\<lambda> (And _1 _0) (And.right _ _ _0))))');
  });

  it('sorts and universe levels', () => {
    expect(leanSexpToSeed('(:forall a (:sort 0) (:forall b (:sort 0) (:sort 0)))', none)).toBe('(\\<forall> Prop (\\<forall> Prop Prop))');
    expect(leanSexpToSeed('(:forall α (:sort (+ u 1)) (:sort (+ u 1)))', none)).toBe('(\\<forall> (Type u) (Type u))');
    expect(leanSexpToSeed('(:lambda α (:sort (+ (:mv _uniq.4) 1)) ((:c List) 0) :i)', none)).toBe('(\\<lambda> (Type ?_uniq.4) (List _0))');
    expect(leanSexpToSeed('(:sort 1)', none)).toBe('Type');
    expect(leanSexpToSeed('(:sort 3)', none)).toBe('(Type 2)');
    expect(leanSexpToSeed('(:sort (:max u v))', none)).toBe('(Sort (max u v))');
  });

  it('free variables by their context names, metavariables, let, literals, projections', () => {
    const locals = new Map([['_uniq.10', 'x'], ['_uniq.13', 'h✝1']]);
    expect(leanSexpToSeed('((:c Or) (:fv _uniq.10) (:fv _uniq.13) (:fv _uniq.99))', locals)).toBe('(Or x h✝1 _uniq.99)');
    expect(leanSexpToSeed('(:let y (:c Nat) (:lit 2) ((:c Nat.add) 0 (:mv _uniq.7)))', none)).toBe('(\\<let> Nat 2 (Nat.add _0 ?_uniq.7))');
    expect(leanSexpToSeed('((:c String.append) (:lit "a (b) \\"c\\"") (:lit "d"))', none)).toBe('(String.append "a (b) \\"c\\"" "d")');
    expect(leanSexpToSeed('(:proj Prod 0 (:fv _uniq.10))', locals)).toBe('(\\<proj> Prod 0 x)');
    expect(leanSexpToSeed('((:subst (:mv _uniq.5) (:fv _uniq.10)) 0)', locals)).toBe('((\\<subst> ?_uniq.5 x) _0)');
  });

  it('refuses what is not Pantograph\'s grammar; the lenient form marks it instead of guessing', () => {
    for (const bad of ['(:forall a (:c Nat)', '(:wat 1)', '(:forall x T B :nope)', ')', '(:c Nat) extra']) expect(() => leanSexpToSeed(bad, none)).toThrow();
    expect(leanSexpToSeedOrRaw('(:wat 1)', none)).toBe('(\\<raw> "(:wat 1)" "unknown form :wat")');
  });
});
