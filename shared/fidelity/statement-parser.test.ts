import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseStatement } from './statement-parser.ts';
import { printCanonical } from './statement-printer.ts';
import type { StatementSyntax, Term } from './statement-term.ts';

const canon = (s: string, syntax: StatementSyntax): string => printCanonical(parseStatement(s, syntax), syntax);

describe('statement parser', () => {
  it('reads Coq notation, ASCII and Unicode alike', () => {
    expect(canon('forall a b : nat, a <= b -> b <= a -> a = b', 'coq')).toBe('∀ (a : nat) (b : nat), a ≤ b → b ≤ a → a = b');
    expect(canon('∀ a b : nat, a ≤ b → b ≤ a → a = b', 'coq')).toBe('∀ (a : nat) (b : nat), a ≤ b → b ≤ a → a = b');
    expect(canon('~ (x = y) /\\ x <> z \\/ True', 'coq')).toBe('¬ (x = y) ∧ x ≠ z ∨ True');
  });

  it('reads Lean notation, with Nat/ℕ identified', () => {
    expect(canon('∀ (n : Nat), n + 0 = n', 'lean')).toBe('∀ (n : ℕ), n + 0 = n');
    expect(canon('forall n : ℕ, n ≥ 0', 'lean')).toBe('∀ (n : ℕ), n ≥ 0');
    expect(canon('∃ x : ℤ, (0 : ℤ) < x', 'lean')).toBe('∃ (x : ℤ), (0 : ℤ) < x');
  });

  it('follows each syntax\'s precedence of → and ↔', () => {
    const coq = parseStatement('A <-> B -> C', 'coq');
    const lean = parseStatement('A ↔ B → C', 'lean');
    expect(coq.kind === 'infix' && coq.op).toBe('→'); // Coq: (A ↔ B) → C
    expect(lean.kind === 'infix' && lean.op).toBe('↔'); // Lean: A ↔ (B → C)
  });

  it('keeps meaningful parentheses and drops redundant ones', () => {
    expect(canon('(a * (b + c))', 'coq')).toBe('a * (b + c)');
    expect(canon('((a * b) * c)', 'coq')).toBe('a * b * c');
    expect(canon('a * (b * c)', 'coq')).toBe('a * (b * c)');
    expect(canon('(f (x)) y', 'coq')).toBe('f x y');
  });

  it('handles scopes, lists and applications', () => {
    expect(canon('forall n : Z, (0 <= n * n)%Z', 'coq')).toBe('∀ (n : Z), (0 ≤ n * n)%Z');
    expect(canon('length (l ++ [1;2]) = length l + 2', 'coq')).toBe('length (l ++ [1; 2]) = length l + 2');
    expect(canon('List.length [1, 2] = 2', 'lean')).toBe('List.length [1, 2] = 2');
  });

  it('rejects text outside the fragment', () => {
    expect(() => parseStatement('forall x, ', 'coq')).toThrow();
    expect(() => parseStatement('a + * b', 'lean')).toThrow();
  });

  // Printing is a fixpoint: print(parse(print(t))) = print(t) for generated trees.
  it('prints trees so that they parse back to the same print (property)', () => {
    const leaf = fc.oneof(fc.constantFrom('a', 'b', 'c', 'P', 'Q').map((name): Term => ({ kind: 'ident', name })), fc.nat(20).map((n): Term => ({ kind: 'num', value: String(n) })));
    const term = fc.letrec<{ t: Term }>((tie) => ({
      t: fc.oneof({ depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ kind: fc.constant('infix' as const), op: fc.constantFrom('→', '↔', '∧', '∨', '=', '≤', '<', '+', '-', '*', '^') as fc.Arbitrary<'+'>, left: tie('t'), right: tie('t') }),
        fc.record({ kind: fc.constant('not' as const), body: tie('t') }),
        fc.record({ kind: fc.constant('quant' as const), q: fc.constantFrom('forall' as const, 'exists' as const), binders: fc.constant(null).map(() => [{ name: 'x', type: { kind: 'ident', name: 'nat' } as Term }]), body: tie('t') }),
        fc.record({ kind: fc.constant('app' as const), fn: fc.constant({ kind: 'ident', name: 'f' } as Term), args: fc.array(tie('t'), { minLength: 1, maxLength: 2 }) }),
      ),
    })).t;
    for (const syntax of ['coq', 'lean'] as const) {
      fc.assert(fc.property(term, (t) => {
        const once = printCanonical(t, syntax);
        expect(canon(once, syntax)).toBe(once);
      }), { numRuns: 300 });
    }
  });
});
