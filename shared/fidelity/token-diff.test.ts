import { describe, expect, it } from 'vitest';
import { tokenDiff } from './token-diff.ts';

describe('token diff of normal forms', () => {
  it('marks only the tokens that differ, merged into runs', () => {
    const d = tokenDiff('∀ (n : nat), P n', '∃ (n : nat), P n');
    expect(d.left).toEqual([{ text: '∀', same: false }, { text: ' (n : nat), P n', same: true }]);
    expect(d.right).toEqual([{ text: '∃', same: false }, { text: ' (n : nat), P n', same: true }]);
    const e = tokenDiff('a + b = b + a', 'a + b = a');
    expect(e.left.filter((s) => !s.same).map((s) => s.text)).toEqual(['b', '+']);
    expect(e.right.every((s) => s.same)).toBe(true);
  });

  it('keeps identical texts as one shared run', () => {
    expect(tokenDiff('x = x', 'x = x')).toEqual({ left: [{ text: 'x = x', same: true }], right: [{ text: 'x = x', same: true }] });
  });
});
