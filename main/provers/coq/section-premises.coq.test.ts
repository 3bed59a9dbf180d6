import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { provedWording } from '../../../shared/protocol/section-premises.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * Issue 21 leftover: a theorem proved under an open section's `Hypothesis H : False` (or any section
 * variable) is conditional on it, and its END says so in words. Which variables, and whether each is a
 * hypothesis, is what Coq reports (Print Assumptions, Locate, a Prop cast): never matched in the text.
 * Real arbor-shell and coqidetop.
 */
describe('a proof under a section\'s hypotheses is reported as conditional (real coqidetop)', () => {
  it('says which hypotheses and variables, only those the proof uses, and nothing once the section is closed', { timeout: 300_000 }, async () => {
    const shell = new ShellProcess(['--timeout', '20']);
    try {
      const on = async (line: string): Promise<ShellResponse> => {
        const r = await shell.request(`0 ${line}`, 0);
        expect(r.ERR, line).toBe('');
        return r;
      };
      // The names and the hypothesis's text are unlike anything a text rule would look for.
      await on('DEFINE "Section Cheat. Variable n\' : nat. Hypothesis ouch : False. Hypothesis unused : 0 = 0."');
      await on('GOAL anything "1 = 2"');
      await on('APPLY (destruct ouch)');
      const end = await on('END');
      expect(end.PREMISES).toEqual([{ kind: 'hypothesis', name: 'ouch', statement: 'False' }]);
      expect(end.CONDITIONAL).toBe("proved, assuming the section's hypothesis ouch : False");
      // A section variable that is not a proposition is a variable; both are listed.
      await on('GOAL uses_both "n\' + 0 = n\' \\/ False"');
      await on('APPLY (left; destruct ouch)');
      const both = await on('END');
      expect(both.CONDITIONAL).toBe("proved, assuming the section's hypothesis ouch : False and its variable n' : nat");
      // A proof that uses none of them is not conditional.
      await on('GOAL plain "2 = 2"');
      await on('APPLY reflexivity');
      const plain = await on('END');
      expect(plain.PREMISES).toBeUndefined();
      expect(plain.CONDITIONAL).toBeUndefined();
      // After End the theorem is generalised (its premise is explicit in its statement): nothing conditional.
      await on('DEFINE "End Cheat."');
      await on('GOAL after "forall h : False, 1 = 2"');
      await on('APPLY (intro h; exact (anything h))');
      expect((await on('END')).PREMISES).toBeUndefined();
    } finally {
      expect(await shell.end()).toBe(0);
    }
  });

  it('words several premises', () => {
    expect(provedWording(undefined)).toBe('proved');
    expect(provedWording([{ kind: 'hypothesis', name: 'H', statement: 'False' }, { kind: 'hypothesis', name: 'G', statement: '0 < 1' }]))
      .toBe("proved, assuming the section's hypotheses H : False and G : 0 < 1");
    expect(provedWording([{ kind: 'variable', name: 'n', statement: 'nat' }])).toBe("proved, assuming the section's variable n : nat");
  });
});
