import { describe, expect, it } from 'vitest';
import { flattenTerm, nodeAt, parseEquationView, usesAimOperators } from './term-view.ts';

describe('parseEquationView', () => {
  it('labels every node with its side.path position', () => {
    const v = parseEquationView('(x * e) \\ (x * y) = T(y, e)');
    expect(v).toBeDefined();
    if (!v) return;
    expect(flattenTerm(v.lhs).map((n) => `${n.node.position}:${n.node.symbol}`)).toEqual(['1:\\', '1.1:*', '1.1.1:x', '1.1.2:e', '1.2:*', '1.2.1:x', '1.2.2:y']);
    expect(flattenTerm(v.rhs).map((n) => `${n.node.position}:${n.node.symbol}`)).toEqual(['2:T', '2.1:y', '2.2:e']);
    expect(v.lhs.text).toBe('(x * e) \\ (x * y)');
    expect(nodeAt(v, '1.2')?.text).toBe('x * y');
    expect(nodeAt(v, '1.1.1')?.kind).toBe('name');
    expect(nodeAt(v, '1.1.2')?.kind).toBe('identity');
    expect(nodeAt(v, '2.3')).toBeUndefined();
  });

  it('accepts the defined operations with their arities and a bare a', () => {
    expect(parseEquationView('L(u, x, y) = R(u, x, y)')?.rhs.children).toHaveLength(3);
    expect(parseEquationView('a = e')?.lhs.kind).toBe('name');
    expect(parseEquationView('((x))= x')?.lhs.position).toBe('1');
    expect(usesAimOperators(parseEquationView('x = y') as NonNullable<ReturnType<typeof parseEquationView>>)).toBe(false);
    expect(usesAimOperators(parseEquationView('x = e') as NonNullable<ReturnType<typeof parseEquationView>>)).toBe(true);
  });

  it('rejects what is not an AIM equation', () => {
    expect(parseEquationView('x * y / z = x')).toBeUndefined();
    expect(parseEquationView('forall n : nat, n + 0 = n')).toBeUndefined();
    expect(parseEquationView('K(x) = e')).toBeUndefined();
    expect(parseEquationView('f(x) = e')).toBeUndefined();
    expect(parseEquationView('x * y')).toBeUndefined();
  });
});
