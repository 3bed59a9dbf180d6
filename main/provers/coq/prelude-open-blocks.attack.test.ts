import { describe, expect, it } from 'vitest';
import { quoted, useRealShell } from './testing/real-shell.ts';
import { runCoqc } from '../../fidelity/run-coqc.ts';
import { blockEffect } from './document-blocks.ts';

/**
 * Attack (atk-blocks, session 15): after a DEFINE, Arbor compares its reading of the blocks with Coq's answer
 * (`Arbor_blocks`) and refuses the text on disagreement; a PRELUDE (no `blocks` option in runCoqText) is not compared:
 * only the policy's reading of Coq's reprint decides whether it "leaves a module type open". The reading takes any
 * `:=` outside a `let` as defining the module at once, so a functor parameter's constraint holding a `fix`
 * (`Module Type N (X : T with Definition x := (fix f (n : nat) : nat := n) 0).`) reads as "nothing open" while Coq
 * opened module type N. The prelude is accepted, every later GOAL is stated inside N (kernel name Top.N.f) though the
 * document believes it is at top level, END says proved, and the SCRIPT it hands back never compiles: coqc says
 * "The module type N needs to be closed" (the SCRIPT's closing `End`s come from the reading, which has none).
 * (`Time Module Type N.` as a prelude is refused: the policy reads through `Time`.)
 */
const PRELUDE = 'Module Type T. Parameter x : nat. End T. Module Type N (X : T with Definition x := (fix f (n : nat) : nat := n) 0).';
// Fixed (session 15): a PRELUDE that leaves any block open by Coq's answer (Arbor_blocks) is refused.
describe('a PRELUDE leaves a block open that Arbor reads as closed (attack, real arbor-shell, coqc)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('the reading alone says nothing is opened', () => {
    expect(blockEffect('Module Type N (X : T with Definition x := (fix f (n : nat) : nat := n) 0).')).toBeUndefined();
  });
  it('the PRELUDE is refused (Coq has module type N open after it), or the SCRIPT of a proved GOAL compiles with coqc', { timeout: 180_000 }, async () => {
    const r = await real.session([`PRELUDE ${quoted(PRELUDE)}`, 'GOAL f "1 = 1"', 'APPLY (reflexivity)', 'END']);
    if (r[0]?.ERR !== '') return; // refused: held
    expect(r[3]?.ERR).toBe('');
    const compiled = await runCoqc(`${r[3]?.SCRIPT ?? ''}\n`, { killAfterMs: 120_000 });
    expect(compiled.output).not.toMatch(/needs to be closed/);
    expect(compiled.ok).toBe(true);
  });
});
