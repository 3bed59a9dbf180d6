import { describe, expect, it } from 'vitest';
import { AimSyntaxError, parseAimEquation, parseAimTerm } from './aim-syntax.ts';

describe('AIM syntax', () => {
  it('reads infix operators, operations, the identity and names', () => {
    expect(parseAimTerm('K(x \\ e, a)')).toEqual({
      symbol: 'K', kind: 'operation', args: [
        { symbol: '\\', kind: 'infix', args: [{ symbol: 'x', kind: 'name', args: [] }, { symbol: 'e', kind: 'identity', args: [] }] },
        { symbol: 'a', kind: 'name', args: [] },
      ],
    });
    expect(parseAimEquation('(x * y) / y = x').rhs).toEqual({ symbol: 'x', kind: 'name', args: [] });
  });

  it('refuses what has two readings or the wrong shape', () => {
    expect(() => parseAimTerm('x * y / z')).toThrow(/ambiguous '\* … \/': parenthesise nested operators/);
    expect(() => parseAimTerm('T(x)')).toThrow(/T takes 2 arguments, got 1/);
    expect(() => parseAimTerm('F(x)')).toThrow(/unknown operation 'F'/);
    expect(() => parseAimTerm('L')).toThrow(/L needs arguments/);
    expect(() => parseAimEquation('x = ')).toThrow(AimSyntaxError);
    expect(() => parseAimTerm('x # y')).toThrow(/unexpected character '#'/);
  });
});
