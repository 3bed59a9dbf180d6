import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fragmentProblem, isIdent, splitSentences } from './coq-sentence.ts';

describe('splitSentences', () => {
  it('splits on terminal dots outside comments and strings', () => {
    expect(splitSentences('Require Import Coq.Arith.Arith. (* a. b *)\nLtac x := idtac "a. b".\nCheck nat.')).toEqual([
      'Require Import Coq.Arith.Arith.',
      'Ltac x := idtac "a. b".',
      'Check nat.',
    ]);
  });
});

describe('fragmentProblem', () => {
  it('accepts ordinary terms and tactics', () => {
    for (const ok of ['forall n : nat, n + 0 = n', 'Nat.add_comm', 'intros a; simpl; rewrite IH', 'idtac "x. (* y"', 'x.(f)', '[1; 2]'])
      expect(fragmentProblem(ok)).toBeUndefined();
  });
  it('rejects anything that could end the sentence or start a vernacular', () => {
    for (const bad of ['auto. Redirect "x" Print nat', 'auto.', 'x) . Check', '(* c *)', 'a *) b', 'f (x', 'f x)', '"open', 'a\nb', 'foo ] bar'])
      expect(fragmentProblem(bad)).toBeDefined();
  });
  it('never lets a sentence end through (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        if (fragmentProblem(s) !== undefined) return;
        // A safe fragment embedded in parentheses is exactly one sentence.
        expect(splitSentences(`(${s}).`)).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });
  it('knows identifiers', () => {
    expect(isIdent("H'1")).toBe(true);
    expect(isIdent('forall')).toBe(false);
    expect(isIdent('a b')).toBe(false);
  });
});
