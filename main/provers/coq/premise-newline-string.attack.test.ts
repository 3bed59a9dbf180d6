import { describe, expect, it } from 'vitest';
import { useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-text): a section hypothesis whose type holds a string literal with a line break in it. `Print Assumptions`
 * prints the literal as it is, so its second line (`  b" = " b"`) is indented text; `parsePrintAssumptions`
 * (assumptions.ts) takes every indented line as a continuation of the statement and joins it *trimmed, with one space*,
 * outside any notion of strings. `H : "⏎  b" = " b"` (false: the strings differ) is then reported in ASSUMPTIONS,
 * PREMISES and CONDITIONAL as `H : " b" = " b"` — a trivially true premise — and the false `nl = " b"` reads as
 * "proved, assuming the section's hypothesis H : " b" = " b"".
 */
// Fixed (session 15): `parsePrintAssumptions` reads a candidate's lines as one text and makes layout blanks one space
// outside string literals only (`coqFlat`), so the literal keeps its line break and the blanks after it; a column-0
// line inside a literal goes on with it and still starts a candidate. The premise was, and is, judged by kernel name.
describe('a premise with a multi-line string literal (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('PREMISES and CONDITIONAL never show the false premise as `" b" = " b"`', { timeout: 120_000 }, async () => {
    const r = await real.session([
      'DEFINE ‹Require Import String Ascii. Open Scope string_scope. Definition nl := String (ascii_of_nat 10) "  b". Section S. Hypothesis H : ltac:(let v := eval cbv in nl in exact (v = " b")).›',
      'GOAL g ‹nl = " b"›', 'APPLY (exact H)', 'END',
    ]);
    const end = r[3];
    expect(end?.ERR).toBe('');
    const shown = JSON.stringify([end?.ASSUMPTIONS, end?.PREMISES, end?.CONDITIONAL]);
    expect(shown).not.toContain('H : \\" b\\" = \\" b\\"');
    expect(end?.PREMISES).not.toEqual([{ kind: 'hypothesis', name: 'H', statement: '" b" = " b"' }]);
  });
});
