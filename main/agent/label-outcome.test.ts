import { describe, expect, it } from 'vitest';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { labelOutcome } from './label-outcome.ts';

const empty = { vars: [], hyps: [] };
const before: TreeView = { id: 0, kind: 'leaf', status: 'open', step: 1, ctxt: empty, goal: 'A /\\ B', current: 'goal' };
const ok = (RESPONSE: unknown, STEP = 2): ShellResponse => ({ CHANNEL: 1, RESPONSE, ERR: '', STEP });

describe('labelOutcome', () => {
  it('closes_goal when the current goal is proved or the proof finished', () => {
    expect(labelOutcome(before, ['APPLY tauto'], [ok({ ctxt: empty, goal: 'True' })]).label).toBe('closes_goal');
    expect(labelOutcome(before, ['END'], [ok({ ctxt: empty, goal: [] })]).label).toBe('closes_goal');
  });

  it('progress with the new subgoals', () => {
    const split = ok({ ctxt: empty, goal: [{ ctxt: empty, goal: 'A' }, { ctxt: empty, goal: 'B' }] });
    expect(labelOutcome(before, ['APPLY split'], [split])).toMatchObject({ label: 'progress', subgoals: ['A', 'B'] });
  });

  it('invalid with the failing command and the prover message, or when nothing changed', () => {
    const failed: ShellResponse = { CHANNEL: 1, RESPONSE: null, ERR: 'The reference foo was not found in the current environment.', STEP: 1 };
    expect(labelOutcome(before, ['APPLY split', 'APPLY foo'], [ok({ ctxt: empty, goal: 'A' }), failed]))
      .toMatchObject({ label: 'invalid', error: 'APPLY foo: The reference foo was not found in the current environment.' });
    expect(labelOutcome(before, ['APPLY idtac'], [ok({ ctxt: empty, goal: 'A /\\ B' })])).toMatchObject({ label: 'invalid', error: 'no progress: the goal is unchanged' });
  });

  it('closes_goal_different_meaning, with both readings, when the END that finished carries STATEMENT (issue 21)', () => {
    const statement = { elaborated: 'Coq.Init.Logic.True', clean: 'Coq.Init.Logic.False', differences: ['here `Coq.Init.Logic.True` stands where a clean reading has `Coq.Init.Logic.False`'] };
    const end: ShellResponse = { ...ok({ ctxt: empty, goal: [] }), STATEMENT: statement };
    expect(labelOutcome(before, ['APPLY (exact I)', 'END'], [ok({ ctxt: empty, goal: 'True' }), end])).toMatchObject({ label: 'closes_goal_different_meaning', statement });
  });
});
