import { describe, expect, it } from 'vitest';
import { globalNames, parseCoqTerm, toSexp } from './coq-sexp.ts';

const full: Record<string, string> = {
  eq: 'Coq.Init.Logic.eq',
  nat: 'Coq.Init.Datatypes.nat',
  'Init.Nat.add': 'Coq.Init.Nat.add',
  S: 'Coq.Init.Datatypes.S',
  O: 'Coq.Init.Datatypes.O',
  and: 'Coq.Init.Logic.and',
  True: 'Coq.Init.Logic.True',
  nil: 'Coq.Init.Datatypes.nil',
  cons: 'Coq.Init.Datatypes.cons',
};
const resolve = (n: string): string => full[n] ?? n;
const sexp = (s: string, locals: string[] = []): string => toSexp(parseCoqTerm(s), new Set(locals), resolve);

describe('coq-sexp', () => {
  it('prints applications with full names and keeps local names', () => {
    expect(sexp('@eq nat (Init.Nat.add n O) n', ['n'])).toBe(
      '(Coq.Init.Logic.eq Coq.Init.Datatypes.nat (Coq.Init.Nat.add n Coq.Init.Datatypes.O) n)',
    );
  });
  it('uses de Bruijn indices for binders, innermost 0', () => {
    expect(sexp('forall (n m : nat) (_ : @eq nat n m), @eq nat m n')).toBe(
      '(\\<forall> Coq.Init.Datatypes.nat (\\<forall> Coq.Init.Datatypes.nat (\\<forall> (Coq.Init.Logic.eq Coq.Init.Datatypes.nat _1 _0) (Coq.Init.Logic.eq Coq.Init.Datatypes.nat _1 _2))))',
    );
    expect(sexp('fun x : nat => Init.Nat.add x (S O)')).toBe(
      '(\\<lambda> Coq.Init.Datatypes.nat (Coq.Init.Nat.add _0 (Coq.Init.Datatypes.S Coq.Init.Datatypes.O)))',
    );
  });
  it('handles let, match as an argument, and universe instances', () => {
    expect(sexp('let k : nat := S O in @eq nat k k')).toBe(
      '(\\<let> Coq.Init.Datatypes.nat (Coq.Init.Datatypes.S Coq.Init.Datatypes.O) (Coq.Init.Logic.eq Coq.Init.Datatypes.nat _0 _0))',
    );
    expect(sexp('and True match l return Prop with | nil => True | cons x r => @eq nat x x end', ['l'])).toBe(
      '(Coq.Init.Logic.and Coq.Init.Logic.True (\\<match> l (Coq.Init.Datatypes.nil Coq.Init.Logic.True) (Coq.Init.Datatypes.cons (Coq.Init.Logic.eq Coq.Init.Datatypes.nat _1 _1))))',
    );
    expect(sexp('forall A : Type@{Top.1}, A')).toBe('(\\<forall> Type _0)');
  });
  it('collects the global names to resolve', () => {
    expect([...globalNames(parseCoqTerm('forall x : nat, @eq nat x y'), new Set(['y']))].sort()).toEqual(['eq', 'nat']);
  });
  it('rejects garbage', () => {
    expect(() => parseCoqTerm('forall (x : nat')).toThrow();
  });
});
