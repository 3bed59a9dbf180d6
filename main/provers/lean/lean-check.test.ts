import { describe, expect, it } from 'vitest';
import { findExecutable } from '../../process/find-executable.ts';
import { checkLeanScript, firstLeanError, readLeanOutput } from './lean-check.ts';

describe('reading `lean FILE` with `#print axioms` (Lean 4\'s message formats)', () => {
  it('the axioms of the theorem, or none', () => {
    expect(readLeanOutput("'arbor_goal' depends on axioms: [propext, Classical.choice, Quot.sound]\n", 0, 'arbor_goal')).toEqual({ ok: true, axioms: ['propext', 'Classical.choice', 'Quot.sound'] });
    expect(readLeanOutput("'arbor_goal' does not depend on any axioms\n", 0, 'arbor_goal')).toEqual({ ok: true, axioms: [] });
    expect(readLeanOutput("/tmp/x/ArborCheck.lean:4:0: warning: declaration uses 'sorry'\n'foo.bar' depends on axioms: [sorryAx]\n", 0, 'foo.bar')).toEqual({ ok: true, axioms: ['sorryAx'] });
    // Another theorem's report is not this one's.
    expect(readLeanOutput("'other' does not depend on any axioms\n", 0, 'arbor_goal')).toMatchObject({ ok: false, error: 'lean printed no axioms report for arbor_goal' });
  });

  it('an error is the first error, on one line, with its line number', () => {
    const out = "/tmp/arbor-lean-check-1/ArborCheck.lean:3:2: error: unsolved goals\np q : Prop\n⊢ p ∧ q\n/tmp/arbor-lean-check-1/ArborCheck.lean:5:0: error: unknown constant 'arbor_goal'\n";
    expect(firstLeanError(out)).toBe('line 3: unsolved goals p q : Prop ⊢ p ∧ q');
    expect(readLeanOutput(out, 1, 'arbor_goal')).toEqual({ ok: false, error: 'line 3: unsolved goals p q : Prop ⊢ p ∧ q', timedOut: false });
    expect(readLeanOutput('', 1, 'arbor_goal')).toEqual({ ok: false, error: 'lean exited with code 1', timedOut: false });
  });
});

// Lean itself cannot be installed on our machines: this runs only where `lean` is on PATH.
const lean = findExecutable('lean');
describe.skipIf(!lean)(`lean on a script${lean ? '' : ' (skipped: lean not found on PATH; install Lean 4 with elan to run it)'}`, () => {
  it('accepts a proof, reports its axioms, refuses a broken one', async () => {
    const ok = await checkLeanScript('theorem arbor_goal : ∀ (p q : Prop), p → q → p ∧ q := by\n  intro p q hp hq\n  exact ⟨hp, hq⟩\n', 'arbor_goal', { lean: lean as string, timeoutMs: 120_000 });
    expect(ok).toEqual({ ok: true, axioms: [] });
    const classical = await checkLeanScript('theorem arbor_goal (p : Prop) : p ∨ ¬p := by\n  exact Classical.em p\n', 'arbor_goal', { lean: lean as string, timeoutMs: 120_000 });
    expect(classical).toMatchObject({ ok: true, axioms: expect.arrayContaining(['Classical.choice']) });
    const bad = await checkLeanScript('theorem arbor_goal : 1 = 2 := by\n  rfl\n', 'arbor_goal', { lean: lean as string, timeoutMs: 120_000 });
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/^line 2: /) });
  }, 300_000);
});
