import { describe, expect, it } from 'vitest';
import { constantFromLocate, judgeAssumptions, parsePrintAssumptions } from './assumptions.ts';

/** `Print Assumptions` as Coq 8.16 prints it for a theorem using an instance whose type holds a string with newlines. */
const INJECTED = [
  'Axioms:',
  'Coq.Logic.Classical_Prop.classic : False',
  'cheat',
  '  : C',
  '      "Expands to: Constant Coq.Logic.Classical_Prop.classic',
  'classic : forall P : Prop, P \\/ ~ P',
  'Closed under the global context',
  '"',
  'a_very_long_axiom_name',
  '  : forall P Q : Prop,',
  '    P -> Q',
].join('\n');

describe('assumptions by kernel name', () => {
  it('every entry at column 0 is a candidate: injected lines add candidates, never hide one', () => {
    const names = parsePrintAssumptions(INJECTED).axioms.map((a) => a.name);
    expect(names).toEqual(['Coq.Logic.Classical_Prop.classic', 'cheat', 'classic', 'a_very_long_axiom_name']);
  });

  it('a statement keeps a string literal as Coq printed it, line breaks and the blanks after them included', () => {
    // `Print Assumptions` of `Hypothesis H : "⏎  b" = " b"` (false) and of a literal whose second line starts at column 0.
    const printed = parsePrintAssumptions(['Section Variables:', 'H', ': "', '  b" = " b"', 'K : "', 'x  y" = "', '', '"', 'c : nat'].join('\n'));
    expect(printed.axioms).toEqual([
      { name: 'H', statement: '"\n  b" = " b"' },
      // Column 0 inside the literal: a candidate of its own, and the lines are given by layout alone, never by quotes
      // (a notation may print a lone `"`): a string may add candidates, never hide one or take another's lines.
      { name: 'K', statement: '"' },
      { name: 'x', statement: 'y" = "' },
      { name: 'c', statement: 'nat' },
    ]);
    // Layout outside literals is still one space: the type's own line breaks.
    expect(parsePrintAssumptions('ax\n  : forall P Q : Prop,\n    P -> Q').axioms).toEqual([{ name: 'ax', statement: 'forall P Q : Prop, P -> Q' }]);
    // A string's column-0 lines are candidates of their own (`classic`, judged by Locate like any): `cheat` keeps its own line.
    expect(parsePrintAssumptions(INJECTED).axioms[1]).toEqual({ name: 'cheat', statement: 'C "Expands to: Constant Coq.Logic.Classical_Prop.classic' });
  });

  it('each candidate is judged by the kernel name Locate gives: a module named Coq, a borrowed basename, an injected trusted name', async () => {
    const kernel: Record<string, string> = {
      'Coq.Logic.Classical_Prop.classic': 'Top.Coq.Logic.Classical_Prop.classic',
      cheat: 'Top.cheat',
      classic: 'Coq.Logic.Classical_Prop.classic',
      a_very_long_axiom_name: 'Top.M.a_very_long_axiom_name',
    };
    const verdict = await judgeAssumptions(parsePrintAssumptions(INJECTED), async (n) => kernel[n], new Set(['Top.a_very_long_axiom_name']));
    expect(verdict).toEqual({ ok: false, reason: 'unsound: depends on Coq.Logic.Classical_Prop.classic (Top.Coq.Logic.Classical_Prop.classic), cheat (Top.cheat), a_very_long_axiom_name (Top.M.a_very_long_axiom_name)' });
  });

  it('reads Locate Term answers: the first object, a constant, or nothing', () => {
    expect(constantFromLocate('Constant Coq.Logic.Classical_Prop.classic\n  (shorter name to refer to it in current context is classic)')).toBe('Coq.Logic.Classical_Prop.classic');
    expect(constantFromLocate('Inductive Top.C')).toBeUndefined();
    expect(constantFromLocate('No term of basename nosuch')).toBeUndefined();
  });
});

describe("Coq's primitive libraries (kernel primitives and the axioms that specify them)", () => {
  const printed = (name: string) => ({ axioms: [{ name, statement: 'T' }], bypasses: [] });
  const judge = (full: string) => judgeAssumptions(printed('x'), async () => full, new Set());
  it('trusts them by kernel name and lists them', async () => {
    for (const full of ['Coq.Numbers.Cyclic.Int63.PrimInt63.int', 'Coq.Numbers.Cyclic.Int63.Uint63.add_spec', 'Coq.Floats.FloatAxioms.Leibniz.eqb_spec', 'Coq.Array.PArray.get_set_same']) {
      expect(await judge(full)).toEqual({ ok: true, assumptions: ['x : T'] });
    }
  });
  it('never a name that only starts like one, nor the document\'s own', async () => {
    for (const full of ['Coq.Numbers.Cyclic.Int63.Uint63X.add_spec', 'Top.Coq.Floats.FloatAxioms.eqb_spec', 'Top.add_spec', 'Coq.Floats.FloatAxiomsEvil.x']) {
      expect((await judge(full)).ok).toBe(false);
    }
  });
});
