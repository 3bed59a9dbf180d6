import { describe, expect, it } from 'vitest';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { formatGoalStructure } from './format-goal-structure.ts';
import { formatProofContext, preludeTheorems } from './format-proof-context.ts';
import { formatProofState } from './format-proof-state.ts';
import { currentGoal } from '../../shared/proof-tree/tree-view-queries.ts';

const ctx = (vars: [string, string][] = [], hyps: [string, string][] = []): TreeView['ctxt'] => ({
  vars: vars.map(([name, type]) => ({ name, type })), hyps: hyps.map(([name, expr]) => ({ name, expr })),
});

// The seed's example state: one goal `nat = nat` under n : nat and H : n + 0 = n.
const seedExample: TreeView = { id: 0, kind: 'leaf', status: 'open', step: 3, ctxt: ctx([['n', 'nat']], [['H', 'n + 0 = n']]), goal: 'nat = nat', current: 'goal' };

const bundle: TreeView = {
  id: 0, kind: 'bundle', status: 'bundle', step: 2, ctxt: ctx([['n', 'nat']]),
  children: [
    { id: 1, kind: 'leaf', status: 'open', step: 2, ctxt: ctx(), goal: 'n + 0 = n' },
    { id: 2, kind: 'leaf', status: 'open', step: 2, ctxt: ctx([], [['H', 'n + 0 = n']]), goal: 'forall m : nat, H = H -> m + n = n + m /\\ ~ (m < 0)' },
  ],
};

describe('tool texts', () => {
  it('get_current_proof_state matches the seed example', () => {
    const text = formatProofState(seedExample, { channel: 0, step: 3 });
    expect(text.startsWith([
      '=== CURRENT PROOF STATE ===', '', '--- Goal 1 ---', 'Goal Type: nat = nat', '', 'Hypotheses:', '  n : nat', '  H : n + 0 = n',
    ].join('\n'))).toBe(true);
  });

  it('numbers the open goals left to right with their full contexts', () => {
    const text = formatProofState(bundle, { channel: 0, step: 2 });
    expect(text).toContain('--- Goal 1 ---\nGoal Type: n + 0 = n\n\nHypotheses:\n  n : nat\n\n--- Goal 2 ---');
    expect(text).toContain('  n : nat\n  H : n + 0 = n');
    expect(text).toContain('2 open goals');
    expect(formatProofState({ id: 0, kind: 'bundle', status: 'bundle', step: 4, ctxt: ctx(), children: [] }, { channel: 0, step: 4 })).toContain('the proof is complete');
  });

  it('get_goal_structure breaks goals down and lists dependencies', () => {
    const text = formatGoalStructure(bundle);
    expect(text).toContain('--- Goal 1 (current) ---');
    expect(text).toContain('Shape: equality (=)');
    expect(text).toContain('lhs: n + 0');
    expect(text).toContain('forall m : nat,');
    expect(text).toContain('implication (->)');
    expect(text).toContain('conjunction (/\\) of 2');
    expect(text).toContain('negation (~)');
    expect(text).toMatch(/H : n \+ 0 = n\n {4}shape: equality \(=\); depends on: n/);
    expect(text).toMatch(/n : nat\n {4}type shape: atom; in goal: yes; used by: H/);
  });

  it('get_proof_context shows the last script lines and the available theorems', () => {
    const lines = [
      { step: 1, text: 'GOAL "forall n : nat, n + 0 = n"' }, { step: 2, text: 'APPLY intros n' }, { step: 3, text: 'HAVE H "n + 0 = n"' },
    ];
    const current = currentGoal(seedExample);
    const text = formatProofContext({ channel: 0, lines, linesBefore: 2, includeTheorems: true, ...(current ? { current } : {}), prelude: 'Lemma add_zero : forall n, n + 0 = n.\nProof. lia. Qed.\n(* Lemma hidden : False. *)' });
    expect(text).toContain('--- Proof script (last 2 of 3 lines; channel 0, step 3) ---\n   2  APPLY intros n\n   3  HAVE H "n + 0 = n"');
    expect(text).toContain('Hypotheses of the current goal:\n  H : n + 0 = n');
    expect(text).toContain('H : n + 0 = n   (line with step 3)');
    expect(text).toContain('Lemma add_zero : forall n, n + 0 = n');
    expect(text).not.toContain('hidden');
    expect(formatProofContext({ channel: 0, lines, linesBefore: 20, includeTheorems: false })).not.toContain('Available theorems');
    expect(preludeTheorems('Definition double (n : nat) := n + n.')).toEqual([{ kind: 'Definition', name: 'double', statement: '(n : nat)' }]);
  });
});
