import { describe, expect, it } from 'vitest';
import { expandAbbreviations, MAX_EXPANDED_TERM, TermTooLarge } from './abbreviations.ts';

describe('LET abbreviations', () => {
  it('expands ?x into (term)', () => {
    expect(expandAbbreviations('?x + ?y = ?z', new Map([['?x', 'a * b'], ['?y', '2']]))).toBe('(a * b) + (2) = ?z');
  });

  it('refuses a doubling chain before building it: 26 LETs of 30 bytes never reach a gigabyte', () => {
    const lets = new Map<string, string>([['?a0', 'n + n']]);
    let refusedAt = -1;
    for (let i = 1; i <= 26; i++) {
      try {
        lets.set(`?a${i}`, expandAbbreviations(`?a${i - 1} + ?a${i - 1}`, lets));
      } catch (e) {
        expect(e).toBeInstanceOf(TermTooLarge);
        expect((e as Error).message).toMatch(/^parse error: term too large/);
        refusedAt = i;
        break;
      }
    }
    expect(refusedAt).toBeGreaterThan(0);
    for (const v of lets.values()) expect(v.length).toBeLessThanOrEqual(MAX_EXPANDED_TERM);
  });
});
