import { describe, expect, it } from 'vitest';
import { COQ_NAME, coqFlat, coqTrim } from './coq-lexical.ts';
import { applyLine, convertTheorem, defineLine, untimed } from './v-file-convert.ts';

const NBSP = '\u00a0';

describe("Coq's blanks and names (Coq 8.16's lexer)", () => {
  it('folds only space, tab, CR and LF; a no-break space and other Unicode spaces stay', () => {
    expect(coqFlat(`  and${NBSP}P\t\r\n  x  `)).toBe(`and${NBSP}P x`);
    expect(coqTrim(`${NBSP}x${NBSP} `)).toBe(`${NBSP}x${NBSP}`);
    expect(coqFlat('a\u2009b\u3000c\ufeffd')).toBe('a\u2009b\u3000c\ufeffd');
  });
  it('reads a name with a no-break space, primes and non-ASCII letters as one name', () => {
    const whole = new RegExp(`^${COQ_NAME}$`);
    for (const name of [`and${NBSP}P`, "x''", 'α_t\'', '𝔸1', '_x']) expect(whole.test(name)).toBe(true);
    for (const text of ['1x', "'x", 'a b', 'a.b']) expect(whole.test(text)).toBe(false);
  });
});

describe('a .v theorem converted to document lines keeps its names', () => {
  it('a statement and tactics naming and\u00a0P convert with the no-break space, layout folded', () => {
    const converted = convertTheorem({
      theorem: { name: 't', ending: 'Qed', tactics: [{ tactic: `exact\n  (and${NBSP}P_intro I)`, line: 3, acted: ['g'], made: [], left: 0, structural: false }] },
      statement: `and${NBSP}P\n   True`,
      binders: [],
    });
    expect(converted).toEqual({ ok: true, lines: [`GOAL t "and${NBSP}P True"`, `APPLY exact (and${NBSP}P_intro I)`, 'END'] });
    expect(applyLine(`simpl;\tauto`)).toBe('APPLY (simpl; auto)');
    expect(defineLine([`Definition and${NBSP}P (Q : Prop) :=\n Q.`])).toBe(`DEFINE "Definition and${NBSP}P (Q : Prop) := Q."`);
    expect(untimed(`Time${NBSP}auto.`)).toBe(`Time${NBSP}auto.`);
    expect(untimed('Time  auto.')).toBe('auto.');
  });
});
