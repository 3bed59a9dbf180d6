import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffText, diffTokens } from './text-diff.ts';

describe('text diff', () => {
  it('splits identifiers (qualified ones whole), numbers, blanks and symbols', () => {
    expect(diffTokens('∀ (x0 : nat), x0 ≤ 10')).toEqual(['∀', ' ', '(', 'x0', ' ', ':', ' ', 'nat', ')', ',', ' ', 'x0', ' ', '≤', ' ', '10']);
    expect(diffTokens("Nat.add n' 0")).toEqual(['Nat.add', ' ', "n'", ' ', '0']);
  });

  it('each side of a diff is its text again', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
      const parts = diffText(a, b);
      expect(parts.filter((p) => p.kind !== 'added').map((p) => p.text).join('')).toBe(a);
      expect(parts.filter((p) => p.kind !== 'removed').map((p) => p.text).join('')).toBe(b);
    }));
  });

  it('marks a changed name, not a stray character', () => {
    expect(diffText('x + 0 = x', 'x0 + 0 = x0').filter((p) => p.kind !== 'same').map((p) => p.text)).toEqual(['x', 'x0', 'x', 'x0']);
  });

  it('shows two long and wholly different texts as replaced, at once', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i}`).join(' ');
    expect(diffText(a, b)).toEqual([{ text: a, kind: 'removed' }, { text: b, kind: 'added' }]);
  });
});
