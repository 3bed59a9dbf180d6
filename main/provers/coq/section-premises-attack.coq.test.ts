import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * Attack on issue 21's conditional proofs (atk-wb): the words must be what Coq reports — every section
 * variable the proof uses (through a Let, an opaque Let, a definition, a nested section, Context, auto,
 * HAMMER), none it does not use (an unused Prop variable, a shadowed library axiom's namesake).
 * Real arbor-shell and coqidetop.
 */
describe('section premises under attack (real coqidetop)', () => {
  it('reports what Coq reports, through Let, definitions, nested sections, Context and library namesakes', { timeout: 600_000 }, async () => {
    const shell = new ShellProcess(['--timeout', '30']);
    try {
      const on = async (line: string): Promise<ShellResponse> => {
        const r = await shell.request(`0 ${line}`, 0);
        expect(r.ERR, line).toBe('');
        return r;
      };
      const prove = async (name: string, goal: string, tactic: string): Promise<ShellResponse> => {
        await on(`GOAL ${name} "${goal}"`);
        await on(`APPLY (${tactic})`);
        return on('END');
      };
      await on('DEFINE "Require Import Coq.Logic.Classical_Prop."');
      // A hypothesis named like a library lemma and like a library axiom; an opaque Let; a Prop variable never used.
      await on('DEFINE "Section Outer. Variable n : nat. Hypothesis plus_n_O : False. Hypothesis classic : False. Variable P : Prop."');
      await on('DEFINE "Let Q : False := plus_n_O."');
      await on('DEFINE "Definition f := n + 1."');
      expect((await prove('via_let', '1 = 2', 'destruct Q')).CONDITIONAL).toBe("proved, assuming the section's hypothesis plus_n_O : False");
      expect((await prove('via_def', 'f = f', 'reflexivity')).CONDITIONAL).toBe("proved, assuming the section's variable n : nat");
      expect((await prove('via_auto', '1 = 2', 'exfalso; auto')).CONDITIONAL).toBe("proved, assuming the section's hypothesis plus_n_O : False");
      // The library axiom itself (shadowed by the section's namesake): an axiom, not a premise.
      const lib = await prove('uses_library', 'forall A : Prop, A \\/ ~ A', 'exact Classical_Prop.classic');
      expect(lib.PREMISES).toBeUndefined();
      expect(lib.ASSUMPTIONS?.join(' ')).toContain('Classical_Prop.classic');
      // The namesake itself, via contradiction.
      expect((await prove('uses_namesake', '3 = 4', 'contradiction classic')).PREMISES).toEqual([{ kind: 'hypothesis', name: 'classic', statement: 'False' }]);
      // An unused Prop variable is no premise.
      expect((await prove('plain', '2 = 2', 'auto')).PREMISES).toBeUndefined();
      // Nested section with implicit Context and a hypothesis over it.
      await on('DEFINE "Section Inner. Context {A : Type} (a : A). Hypothesis G : a = a -> False."');
      const nested = await prove('nested', '1 = 2', 'contradiction G; reflexivity');
      expect(nested.PREMISES?.map((p) => `${p.kind} ${p.name}`).sort()).toEqual(['hypothesis G', 'variable A', 'variable a']);
      await on('DEFINE "Context (K : False)."');
      expect((await prove('via_context', '5 = 6', 'destruct K')).PREMISES).toEqual([{ kind: 'hypothesis', name: 'K', statement: 'False' }]);
      // HAMMER finds the proof through a section hypothesis: still conditional.
      await on('GOAL hammered "7 = 8"');
      await on('HAMMER');
      const h = await on('END');
      expect(h.CONDITIONAL ?? '').toMatch(/^proved, assuming the section's hypothes/);
    } finally {
      expect(await shell.end()).toBe(0);
    }
  });
});
