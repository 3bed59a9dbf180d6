import { describe, expect, it } from 'vitest';
import { splitHyp } from './coq-hyps.ts';

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
});
