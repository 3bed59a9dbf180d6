import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isFinishedState, openGoalCount, parseStateJson, treeViewFromState, treeViewOfState, treeViewToState } from './from-state-json.ts';
import type { TreeView } from './proof-tree.ts';
import type { Goal } from './proof-state.ts';

const empty = { vars: [], hyps: [] };

function ids(view: TreeView): number[] {
  return [view.id, ...(view.children ?? []).flatMap(ids)];
}

describe('parseStateJson', () => {
  it('accepts the seed grammar, propositions and bundles', () => {
    const state = { ctxt: { vars: [{ name: 'x', type: 'nat' }], hyps: [] }, goal: [{ ctxt: empty, goal: 'A' }, { ctxt: { vars: [], hyps: [{ name: 'h', expr: 'A' }] }, goal: 'B' }] };
    expect(parseStateJson(state)).toEqual(state);
    expect(parseStateJson({ ctxt: empty, goal: 'x = x' })).toEqual({ ctxt: empty, goal: 'x = x' });
  });
  it('rejects anything else', () => {
    expect(parseStateJson(null)).toBeUndefined();
    expect(parseStateJson({ goal: 'A' })).toBeUndefined();
    expect(parseStateJson({ ctxt: { vars: [{ name: 1 }], hyps: [] }, goal: 'A' })).toBeUndefined();
    expect(parseStateJson({ ctxt: empty, goal: [{ ctxt: empty, goal: 3 }] })).toBeUndefined();
  });
});

describe('treeViewFromState', () => {
  it('marks the leftmost leaf current, its parent the current bundle, True as proved', () => {
    const state: Goal = { ctxt: empty, goal: [{ ctxt: empty, goal: 'True' }, { ctxt: { vars: [], hyps: [{ name: 'h1', expr: 'A' }] }, goal: 'B' }] };
    const view = treeViewFromState(state, { step: 3 });
    expect(view.kind).toBe('bundle');
    expect(view.current).toBe('bundle');
    expect(view.children?.[0]).toMatchObject({ kind: 'leaf', status: 'proved', current: 'goal', step: 3 });
    expect(view.children?.[1]).toMatchObject({ kind: 'leaf', status: 'open', goal: 'B', ctxt: { vars: [], hyps: [{ name: 'h1', expr: 'A' }] } });
    expect(view.children?.[1]?.current).toBeUndefined();
  });

  it('a single proposition is the current goal; the empty bundle is a finished proof', () => {
    expect(treeViewFromState({ ctxt: empty, goal: 'P' }, { step: 1 })).toMatchObject({ kind: 'leaf', current: 'goal', status: 'open', step: 1 });
    const done = treeViewFromState({ ctxt: empty, goal: [] }, { step: 9 });
    expect(done).toMatchObject({ kind: 'bundle', children: [] });
    expect(isFinishedState({ ctxt: empty, goal: [] })).toBe(true);
  });

  it('unchanged nodes keep their id and step; new ones get fresh ids and the new step', () => {
    const s1: Goal = { ctxt: empty, goal: [{ ctxt: empty, goal: 'A' }, { ctxt: { vars: [], hyps: [{ name: 'h', expr: 'A' }] }, goal: 'G' }] };
    const v1 = treeViewFromState(s1, { step: 2 });
    const s2: Goal = { ctxt: empty, goal: [{ ctxt: empty, goal: [{ ctxt: empty, goal: 'A1' }, { ctxt: empty, goal: 'A2' }] }, { ctxt: { vars: [], hyps: [{ name: 'h', expr: 'A' }] }, goal: 'G' }] };
    const v2 = treeViewFromState(s2, { step: 3, previous: v1 });
    const kept = v2.children?.[1];
    expect(kept?.id).toBe(v1.children?.[1]?.id);
    expect(kept?.step).toBe(2);
    expect(v2.children?.[0]?.step).toBe(3);
    expect(new Set(ids(v2)).size).toBe(ids(v2).length);
  });

  it('property: ids are unique and leaves count matches the state', () => {
    const leaf = fc.record({ ctxt: fc.constant(empty), goal: fc.constantFrom('A', 'B', 'True', 'x = y') });
    const goal: fc.Arbitrary<Goal> = fc.letrec<{ g: Goal }>((tie) => ({
      g: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.record({ ctxt: fc.constant(empty), goal: fc.array(tie('g'), { minLength: 2, maxLength: 3 }) })),
    })).g;
    fc.assert(fc.property(goal, goal, (a, b) => {
      const va = treeViewFromState(a, { step: 1 });
      const vb = treeViewFromState(b, { step: 2, previous: va });
      const all = ids(vb);
      expect(new Set(all).size).toBe(all.length);
      const open = (v: TreeView): number => v.kind === 'leaf' ? (v.status === 'open' ? 1 : 0) : (v.children ?? []).reduce((n, c) => n + open(c), 0);
      expect(open(vb)).toBe(openGoalCount(b));
    }));
  });

  it('reads a response as a tree view with current markers, and gives the same state back', () => {
    const empty = { vars: [], hyps: [] };
    const state = { ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [] }, goal: [{ ctxt: empty, goal: 'True' }, { ctxt: { vars: [], hyps: [{ name: 'h', expr: 'n = 0' }] }, goal: 'B' }] };
    const view = treeViewOfState(state, 3);
    expect(view?.kind).toBe('bundle');
    expect(view?.children?.[0]).toMatchObject({ status: 'proved', current: 'goal', step: 3 });
    expect(treeViewToState(view!)).toEqual(state);
    expect(treeViewOfState({ ID: 1 })).toBeNull();
    expect(treeViewOfState(null)).toBeNull();
  });
});
