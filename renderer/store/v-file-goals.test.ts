import { describe, expect, it } from 'vitest';
import type { VFileTheoremReport, VGoal, VSentence } from '../../shared/derivation/v-file-derivation.ts';
import { derivationSteps, recordedSteps, theoremsOf } from '../../shared/derivation/v-file-derivation.ts';
import { openGoals } from '../../shared/proof-tree/tree-view-queries.ts';
import { vFileGoalsAt, vFileStepAtLine } from './v-file-goals.ts';

const g = (id: string, goal: string, hyps: string[] = []): VGoal => ({ id, goal, context: hyps.map((h) => ({ kind: 'hyp' as const, name: h, text: `P${h}` })) });
const s = (code: string, line: number, goals?: VGoal[]): VSentence => ({ text: code, pp: code, code, line, ...(goals ? { goals } : {}) });

// A .v proof as coqidetop reported it (goal identities), including a hypothesis `intros` replaces.
const FILE: VSentence[] = [
  s('Lemma l : A -> A /\\ B.', 1, [g('1', 'A -> A /\\ B')]),
  s('Proof.', 2, [g('1', 'A -> A /\\ B')]),
  s('intros H.', 3, [g('2', 'A /\\ B', ['H'])]),
  s('split.', 4, [g('3', 'A', ['H']), g('4', 'B', ['H'])]),
  s('exact H.', 5, [g('4', 'B', ['H'])]),
  // Coq lists the goal `admit` gave up (the Goals answer's given_up list).
  { ...s('admit.', 6, []), givenUp: ['4'] },
  s('Admitted.', 7),
];
const [t] = theoremsOf(FILE);
const report: VFileTheoremReport = { name: 'l', opener: FILE[0]!.code, line: 1, endLine: 7, ending: 'Admitted', steps: derivationSteps(recordedSteps(FILE, t!)), converted: { ok: false, reason: '' } };

describe('goals in .v mode', () => {
  it('shows the goals before and after the tactic at the step, with the context Coq reported there', () => {
    const at = vFileGoalsAt(report, 3); // exact H
    expect(at.kind).toBe('checked');
    if (at.kind !== 'checked') return;
    expect(at.entry).toMatchObject({ line: 5, text: 'exact H' });
    const before = openGoals(at.before!), after = openGoals(at.after!);
    expect(before.map((x) => x.goal)).toEqual(['A', 'B']);
    expect(before[0]!.hyps.map((h) => `${h.name} : ${h.expr}`)).toEqual(['H : PH']);
    expect(after.map((x) => x.goal)).toEqual(['B']);
  });

  it('starts at the statement and ends with no goals', () => {
    const first = vFileGoalsAt(report, 0);
    expect(first.kind).toBe('between');
    if (first.kind === 'between') expect(openGoals(first.after!).map((x) => x.goal)).toEqual(['A -> A /\\ B']);
    const last = vFileGoalsAt(report, null);
    expect(last.kind === 'checked' && openGoals(last.after!)).toEqual([]);
  });

  it('maps a clicked source line to its theorem and the step at or above it', () => {
    expect(vFileStepAtLine([report], 4)).toEqual({ theorem: 0, step: 2 });
    expect(vFileStepAtLine([report], 1)).toEqual({ theorem: 0, step: 0 });
    expect(vFileStepAtLine([report], 7)).toEqual({ theorem: 0, step: null });
    expect(vFileStepAtLine([report], 9)).toBeUndefined();
  });
  it('never calls an Admitted proof complete when admit left no goals (atk-wb)', () => {
    const last = vFileGoalsAt(report, null);
    expect(last.kind === 'checked' && last.notProved).toMatch(/Admitted.*not proved/);
    // A proof that ends with Qed says nothing more.
    expect(vFileGoalsAt({ ...report, ending: 'Qed' }, null)).not.toHaveProperty('notProved');
  });

  // The goal `admit` gave up is drawn given up, not proved (and so is the proof's root above it).
  it('does not draw a goal given up with admit as proved', () => {
    const all: { action?: string; status: string; children?: unknown[] }[] = [];
    const walk = (n: { action?: string; status: string; children?: unknown[] }): void => { all.push(n); (n.children ?? []).forEach((c) => walk(c as typeof n)); };
    walk(report.steps.at(-1)!.tree as never);
    const admitted = all.find((n) => n.action === 'admit');
    expect(admitted).toBeDefined();
    expect(admitted!.status).not.toBe('proved');
    expect(admitted).toMatchObject({ givenUp: true });
    expect(all[0]).toMatchObject({ givenUp: true });
    expect(all.find((n) => n.action === 'exact H')!.status).toBe('proved');
  });
});
