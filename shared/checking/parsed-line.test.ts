import { describe, expect, it } from 'vitest';
import { parseLine, parseLines } from './parsed-line.ts';

describe('lines parsed once', () => {
  it('splits a line into its requests, parsed, a channel written before one left out', () => {
    const line = parseLine('0 HAVE "a; b"; APPLY (intros; simpl); FOO');
    expect(line.requests.map((r) => r.text)).toEqual(['HAVE "a; b"', 'APPLY (intros; simpl)', 'FOO']);
    expect(line.requests.map((r) => ('command' in r.parsed ? r.parsed.command : r.parsed.error))).toEqual([
      { name: 'HAVE', expr: 'a; b' }, { name: 'APPLY', tactic: '(intros; simpl)' }, 'unknown command: FOO',
    ]);
    expect(parseLine('GOAL "x').requests.map((r) => 'error' in r.parsed && r.parsed.error)).toEqual(['parse error: unclosed quote']);
    expect(parseLine('// a comment').requests).toEqual([]);
    expect(parseLine('   ').requests).toEqual([]);
  });

  it('keeps the parse of every line whose text did not change', () => {
    const before = parseLines(['GOAL "A"', 'APPLY t', 'END']);
    const after = parseLines(['GOAL "A"', 'APPLY u', 'END', 'END'], before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[2]).toBe(before[2]);
    expect(after[3]).toBe(before[2]);
  });
});
