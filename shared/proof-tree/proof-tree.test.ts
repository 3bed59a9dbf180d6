import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextEntry, Goal, OpenGoal } from './proof-state.ts';
import { isBundle } from './proof-state.ts';
import type { ProofTree } from './proof-tree.ts';
import {
  currentLeaf, initialTree, isFinished, leaves, openLeaves, refreshOpenLeaves, removeCurrentLeaf,
  replaceCurrentLeaf, toStateJson, toTreeView,
} from './proof-tree.ts';

const hyp = (name: string, text: string): ContextEntry => ({ kind: 'hyp', name, text });
const v = (name: string, text: string): ContextEntry => ({ kind: 'var', name, text });
const g = (goal: string, ...context: ContextEntry[]): OpenGoal => ({ goal, context });
const empty = { vars: [], hyps: [] };

/** Tactic helper mirroring what a prover reports for HAVE: the new fact first, then the goal with it. */
const have = (tree: ProofTree, name: string, expr: string, step: number): ProofTree => {
  const cur = currentLeaf(tree);
  if (!cur) throw new Error('no goal');
  return replaceCurrentLeaf(tree, [g(expr, ...cur.context), g(cur.goal, ...cur.context, hyp(name, expr))], step);
};
const prove = (tree: ProofTree, step: number): ProofTree => replaceCurrentLeaf(tree, [], step);

describe('proof tree', () => {
  it('starts as one leaf with the empty context', () => {
    expect(toStateJson(initialTree(g('A'), 1))).toEqual({ ctxt: empty, goal: 'A' });
  });

  it('follows the seed\'s first HAVE example', () => {
    const c = [v('n', 'nat')];
    let t = initialTree(g('g', ...c), 1);
    t = have(t, 'h', '1+1=2', 2);
    expect(toStateJson(t)).toEqual({
      ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [] },
      goal: [{ ctxt: empty, goal: '1+1=2' }, { ctxt: { vars: [], hyps: [{ name: 'h', expr: '1+1=2' }] }, goal: 'g' }],
    });
    t = prove(t, 3);
    expect(currentLeaf(t)?.status).toBe('proved');
    expect((toStateJson(t).goal as Goal[])[0]?.goal).toBe('True');
    t = removeCurrentLeaf(t);
    // One child left: the bundle reduces, contexts concatenate.
    expect(toStateJson(t)).toEqual({ ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [{ name: 'h', expr: '1+1=2' }] }, goal: 'g' });
  });

  it('follows the seed\'s nested HAVE example (B is available for A, not for g)', () => {
    let t = initialTree(g('g'), 1);
    t = have(t, 'a', 'A', 2);
    t = have(t, 'b', 'B', 3);
    expect(toStateJson(t)).toEqual({
      ctxt: empty,
      goal: [
        { ctxt: empty, goal: [{ ctxt: empty, goal: 'B' }, { ctxt: { vars: [], hyps: [{ name: 'b', expr: 'B' }] }, goal: 'A' }] },
        { ctxt: { vars: [], hyps: [{ name: 'a', expr: 'A' }] }, goal: 'g' },
      ],
    });
    t = removeCurrentLeaf(prove(t, 4));
    expect(toStateJson(t)).toEqual({
      ctxt: empty,
      goal: [{ ctxt: { vars: [], hyps: [{ name: 'b', expr: 'B' }] }, goal: 'A' }, { ctxt: { vars: [], hyps: [{ name: 'a', expr: 'A' }] }, goal: 'g' }],
    });
    t = removeCurrentLeaf(prove(t, 5));
    expect(toStateJson(t)).toEqual({ ctxt: { vars: [], hyps: [{ name: 'a', expr: 'A' }] }, goal: 'g' });
    t = removeCurrentLeaf(prove(t, 6));
    expect(isFinished(t)).toBe(true);
    expect(toStateJson(t)).toEqual({ ctxt: empty, goal: [] });
  });

  it('keeps a hypothesis a branch changed in that branch only', () => {
    let t = initialTree(g('P', hyp('H', 'x = 1')), 1);
    t = replaceCurrentLeaf(t, [g('P1', hyp('H', 'x = 1')), g('P2', hyp('H', '1 = x'))], 2);
    const json = toStateJson(t);
    expect(json.ctxt).toEqual(empty);
    expect(json.goal).toEqual([
      { ctxt: { vars: [], hyps: [{ name: 'H', expr: 'x = 1' }] }, goal: 'P1' },
      { ctxt: { vars: [], hyps: [{ name: 'H', expr: '1 = x' }] }, goal: 'P2' },
    ]);
  });

  it('refreshes open leaves in order and skips proved ones', () => {
    let t = initialTree(g('G'), 1);
    t = replaceCurrentLeaf(t, [g('A'), g('B'), g('C')], 2);
    t = prove(t, 3);
    t = refreshOpenLeaves(t, [g('B\''), g('C\'')]);
    expect(leaves(t).map((l) => [l.goal, l.status])).toEqual([['A', 'proved'], ['B\'', 'open'], ['C\'', 'open']]);
    expect(() => refreshOpenLeaves(t, [g('x')])).toThrow();
  });

  it('marks the current goal and bundle in the tree view', () => {
    let t = initialTree(g('G'), 1);
    t = replaceCurrentLeaf(t, [g('A'), g('B')], 2);
    const view = toTreeView(t);
    expect(view.current).toBe('bundle');
    expect(view.children?.[0]?.current).toBe('goal');
    expect(view.children?.[1]?.current).toBeUndefined();
    expect(view.children?.map((c) => c.step)).toEqual([2, 2]);
  });

  it('stays normal under any sequence of steps (property)', () => {
    type Op = { kind: 'split'; n: number } | { kind: 'prove' } | { kind: 'end' };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('split' as const), n: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('prove' as const) }),
      fc.record({ kind: fc.constant('end' as const) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), (ops: Op[]) => {
      let t = initialTree(g('G'), 1);
      let step = 1;
      for (const o of ops) {
        const cur = currentLeaf(t);
        if (!cur) break;
        step++;
        if (o.kind === 'split' && cur.status === 'open') t = replaceCurrentLeaf(t, Array.from({ length: o.n }, (_, i) => g(`G${step}.${i}`, hyp(`h${step}`, 'x'))), step);
        else if (o.kind === 'prove' && cur.status === 'open') t = prove(t, step);
        else if (o.kind === 'end' && cur.status === 'proved') t = removeCurrentLeaf(t);
      }
      const check = (goal: Goal, root: boolean): void => {
        if (!isBundle(goal)) return;
        if (!root || goal.goal.length > 0) expect(goal.goal.length).toBeGreaterThanOrEqual(2);
        goal.goal.forEach((c) => check(c, false));
      };
      check(toStateJson(t), true);
      expect(new Set(leaves(t).map((l) => l.id)).size).toBe(leaves(t).length);
      expect(openLeaves(t).every((l) => l.status === 'open')).toBe(true);
    }));
  });
});
