import { describe, expect, it } from 'vitest';
import { LetScope, LetTable } from './let-scope.ts';

/** The abbreviations of a scope, built the slow, obvious way. */
function reference(scope: LetScope): Map<string, string> {
  const chain: LetScope[] = [];
  for (let s: LetScope = scope; s.parent !== undefined; s = s.parent) chain.unshift(s);
  return new Map(chain.map((s) => [s.name, s.term]));
}

describe('LetTable', () => {
  it('matches the chain after any mix of LETs, REVERTs (to any earlier scope) and new GOALs', () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const table = new LetTable();
    // The history of the current proof: scopes after each step (REVERT cuts it).
    let history: LetScope[] = [LetScope.empty];
    for (let i = 0; i < 5000; i++) {
      const op = random(10);
      const last = history.at(-1) as LetScope;
      if (op < 6) history.push(last.with(`?x${random(8)}`, `t${i}`));
      else if (op < 9) history = history.slice(0, 1 + random(history.length));
      else history = [LetScope.empty];
      const now = history.at(-1) as LetScope;
      const view = table.view(now);
      const names = new Set([...reference(now).keys(), ...Array.from({ length: 8 }, (_, k) => `?x${k}`)]);
      expect(new Map([...names].map((n) => [n, view.get(n)])), `op ${i}`).toEqual(new Map([...names].map((n) => [n, reference(now).get(n)])));
    }
  });

  it('REVERT one step and LET again, 50,000 times on a chain of 50,000, stays linear', () => {
    const table = new LetTable();
    let scope = LetScope.empty;
    for (let i = 0; i < 50_000; i++) {
      table.view(scope);
      scope = scope.with(`?a${i}`, `f ${i}`);
    }
    const started = Date.now();
    const parent = scope.parent as LetScope;
    for (let j = 0; j < 50_000; j++) {
      table.view(parent);
      const next = parent.with('?b', `g ${j}`);
      // Checked without expect: 50,000 expect calls cost seconds of their own.
      if (table.view(next).get('?b') !== `g ${j}`) throw new Error(`?b after pair ${j}`);
    }
    // Rebuilding the table on each REVERT was 50,000 × 50,000 map sets (minutes); now one undo and one set per pair.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(table.view(parent).get('?a0')).toBe('f 0');
    expect(table.view(parent).get('?b')).toBeUndefined();
  });
});
