import { describe, expect, it } from 'vitest';
import { isLetBound, readLetTypes, splitHyp } from './coq-hyps.ts';

describe('splitHyp', () => {
  it('splits grouped names', () => {
    expect(splitHyp('n, m : nat')).toEqual([
      { name: 'n', type: 'nat' },
      { name: 'm', type: 'nat' },
    ]);
  });
  it('keeps a type containing colons', () => {
    expect(splitHyp("H' : forall x : nat, x = x")).toEqual([{ name: "H'", type: 'forall x : nat, x = x' }]);
  });
  it('splits let-bound names into body and type', () => {
    expect(splitHyp('x := 3 : nat')).toEqual([{ name: 'x', type: 'nat', body: '3' }]);
    expect(splitHyp('f := fun y : nat => y : nat -> nat')).toEqual([
      { name: 'f', type: 'nat -> nat', body: 'fun y : nat => y' },
    ]);
  });
  it('takes a let-bound hypothesis\' type from Coq when the text ends with it: a type that binds is not split at its binder', () => {
    const text = 'x := fun n : nat => eq_refl : forall n : nat, n = n';
    // Without Coq's word, the last top-level ` : ` (a guess, and wrong here).
    expect(splitHyp(text)).toEqual([{ name: 'x', type: 'nat, n = n', body: 'fun n : nat => eq_refl : forall n' }]);
    const types = new Map([['x', 'forall n : nat, n = n']]);
    expect(splitHyp(text, types)).toEqual([{ name: 'x', type: 'forall n : nat, n = n', body: 'fun n : nat => eq_refl' }]);
    // Grouped names share the body and the type.
    expect(splitHyp('a, b := 3 : nat', new Map([['a', 'nat'], ['b', 'nat']]))).toEqual([{ name: 'a', type: 'nat', body: '3' }, { name: 'b', type: 'nat', body: '3' }]);
    // An answer the text does not end with (another state's), or one that would leave no body: the text decides.
    expect(splitHyp('x := 3 : nat', new Map([['x', 'bool']]))).toEqual([{ name: 'x', type: 'nat', body: '3' }]);
    expect(splitHyp('x := 3 : nat', new Map([['x', '3 : nat']]))).toEqual([{ name: 'x', type: 'nat', body: '3' }]);
    // A plain hypothesis never asks.
    expect(splitHyp('H : forall n : nat, n = n', types)).toEqual([{ name: 'H', type: 'forall n : nat, n = n' }]);
    expect([isLetBound(text), isLetBound('H : x := y')]).toEqual([true, false]);
  });

  it('reads the plugin\'s Arbor_let_types answer by goal id, then by name; anything else is no answer', () => {
    const read = readLetTypes(['7\nlx, x\nforall n : nat,\n  n = n', '10\nz\nnat * nat', '10\ns\n"a\n  b" = "c"']);
    expect(read && [...read].map(([g, m]) => [g, [...m]])).toEqual([
      ['7', [['lx', 'forall n : nat, n = n'], ['x', 'forall n : nat, n = n']]],
      ['10', [['z', 'nat * nat'], ['s', '"a\n  b" = "c"']]],
    ]);
    expect(readLetTypes(['Error'])).toBeUndefined();
    expect(readLetTypes([])).toEqual(new Map());
  });
});
