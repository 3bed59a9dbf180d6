import { describe, expect, it } from 'vitest';
import { useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-locate): a section hypothesis `H : P ` (a no-break space ends the name; `P ` := 0 = 1) is reported in
 * PREMISES and CONDITIONAL as `H : P` — the document's other `P` := 1 = 1: a false premise shown as a trivial one.
 * A string's inner blanks are folded the same way (`"a  b"` shown as `"a b"`). ASSUMPTIONS has both right.
 */
const NB = '\u00a0';
describe('section premises keep names and strings whole (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('PREMISES and CONDITIONAL name `P ` (0 = 1), not `P` (1 = 1), and keep "a  b"', { timeout: 120_000 }, async () => {
    const r = await real.session([
      'PRELUDE bare',
      `DEFINE ‹Require Import String. Open Scope string_scope. Definition P := 1 = 1. Definition P${NB} := 0 = 1. Section S. Hypothesis H : P${NB}. Hypothesis K : "a  b" = "a  b".›`,
      `GOAL g ‹P${NB} /\\ "a  b" = "a  b"›`, 'APPLY (exact (conj H K))', 'END',
    ]);
    const end = r[4];
    expect(end?.ERR).toBe('');
    expect(end?.ASSUMPTIONS).toContain(`H : P${NB} (section variable: a premise of the theorem once its section ends)`);
    expect(end?.PREMISES).toEqual(expect.arrayContaining([
      { kind: 'hypothesis', name: 'H', statement: `P${NB}` },
      { kind: 'hypothesis', name: 'K', statement: '"a  b" = "a  b"' },
    ]));
    expect(end?.CONDITIONAL).toContain(`H : P${NB}`);
  });
});
