import { describe, expect, it } from 'vitest';
import { convertTheorem } from '../protocol/v-file-convert.ts';
import type { VGoal, VSentence } from './v-file-derivation.ts';
import { coqCode, derivationSteps, recordedSteps, theoremsOf } from './v-file-derivation.ts';

const g = (id: string, goal: string, hyps: string[] = []): VGoal => ({ id, goal, context: hyps.map((h) => ({ kind: 'hyp' as const, name: h, text: 'P' })) });
const s = (code: string, line: number, goals?: VGoal[]): VSentence => ({ text: code, pp: code, code, line, ...(goals ? { goals } : {}) });

/** A proof as coqidetop reports it: goal identities decide what acted on what, never the tactic's text. */
const FILE: VSentence[] = [
  s('Require Import Arith.', 1),
  s("Lemma l' : A /\\ B.", 2, [g('1', 'A /\\ B')]),
  s('Proof.', 3, [g('1', 'A /\\ B')]),
  s('split.', 4, [g('2', 'A'), g('3', 'B')]),
  s('-', 5, [g('2', 'A'), g('3', 'B')]),
  s('assert (H : C).', 5, [g('4', 'C'), g('5', 'A', ['H']), g('3', 'B')]),
  s('{', 6, [g('4', 'C'), g('5', 'A', ['H']), g('3', 'B')]),
  s('exact c.', 6, [g('5', 'A', ['H']), g('3', 'B')]),
  s('}', 6, [g('5', 'A', ['H']), g('3', 'B')]),
  s('exact a.', 7, [g('3', 'B')]),
  s('-', 8, [g('3', 'B')]),
  s('exact b.', 8, []),
  s('Qed.', 9),
];

describe('a .v proof as the engine records it', () => {
  it('finds the theorem and what each tactic acted on; bullets and braces only focus', () => {
    const [t] = theoremsOf(FILE);
    expect(t).toMatchObject({ name: "l'", ending: 'Qed', line: 2, endLine: 9 });
    expect(t!.tactics.filter((x) => !x.structural).map((x) => [x.tactic, x.acted, x.made])).toEqual([
      ['split', ['1'], ['2', '3']], ['assert (H : C)', ['2'], ['4', '5']], ['exact c', ['4'], []], ['exact a', ['5'], []], ['exact b', ['3'], []],
    ]);
    const steps = derivationSteps(recordedSteps(FILE, t!));
    expect(steps).toHaveLength(6);
    const whole = steps.at(-1)!.tree;
    expect(whole.action).toBe('split');
    expect(whole.children?.map((c) => c.action)).toEqual(['assert (H : C)', 'exact b']);
    expect(whole.children?.[0]?.children?.map((c) => [c.goal, c.closed])).toEqual([['C', true], ['A', true]]);
    // Part-way: after the assert, its two goals are open and the first is current.
    const mid = steps[2]!.tree;
    expect(mid.children?.[0]?.children?.map((c) => [c.goal, c.current ?? ''])).toEqual([['C', 'goal'], ['A', '']]);
  });

  it('converts to GOAL / APPLY / NEXT / END, and refuses what one goal at a time cannot say', () => {
    const [t] = theoremsOf(FILE);
    const c = convertTheorem({ theorem: t!, statement: 'A /\\ B', binders: [] });
    expect(c).toEqual({ ok: true, lines: ["GOAL l' \"A /\\ B\"", 'APPLY split', 'APPLY assert (H : C)', 'APPLY exact c', 'NEXT', 'APPLY exact a', 'NEXT', 'APPLY exact b', 'END'] });
    const ALL = [s('Goal A /\\ B.', 1, [g('1', 'A /\\ B')]), s('split.', 2, [g('2', 'A'), g('3', 'B')]), s('all: exact x.', 3, []), s('Qed.', 4)];
    const all = theoremsOf(ALL);
    expect(convertTheorem({ theorem: all[0]!, statement: 'A', binders: [], fallbackName: 'g' })).toEqual({ ok: false, reason: "line 3: 'all: exact x' works on several goals or out of order" });
    // The derivation still records it: one act per goal it closed.
    expect(recordedSteps(ALL, all[0]!).map((r) => r.act?.command ?? 'goal')).toEqual(['goal', 'split', 'all: exact x', 'all: exact x']);
  });

  it('drops comments as Coq does (nested, and a string inside one)', () => {
    expect(coqCode('(* a (* b *) "*)" c *) exact  (x)\n.')).toBe('exact (x) .');
  });
});
