import { describe, expect, it } from 'vitest';
import type { Context, Goal } from '../proof-tree/proof-state.ts';
import { buildDerivation, derivationNodes, exchangesByChannel, proofsFromExchanges, stateLeaves } from './derivation.ts';
import { derivationToTreeView } from './derivation-view.ts';
import type { DerivationStep } from './derivation.ts';
import { summariseTree, summaryId } from './derivation-summary.ts';
import { flowOf, hypothesisUses } from './hypothesis-flow.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';

const ctx = (vars: [string, string][] = [], hyps: [string, string][] = []): Context => ({
  vars: vars.map(([name, type]) => ({ name, type })),
  hyps: hyps.map(([name, expr]) => ({ name, expr })),
});
const prop = (goal: string, c: Context = ctx()): Goal => ({ ctxt: c, goal });
const bundle = (goals: Goal[], c: Context = ctx()): Goal => ({ ctxt: c, goal: goals });

// BRIEF §3's fold example, as the shell answers it (states abbreviated to their shape).
const P = 'fold_left l 0 = fold_right l';
const Q = 'forall l a, fold_left l a = a + fold_right l';
const Q0 = 'forall a, fold_left [] a = a + fold_right []';
const Q1 = 'forall a, fold_left (x :: l) a = a + fold_right (x :: l)';
const P2 = '0 + fold_right l = fold_right l';
const G = ctx([], [['G', Q]]);
const fold: DerivationStep[] = [
  { step: 1, command: `GOAL "${P}"`, state: prop(P) },
  { step: 2, command: `HAVE G "${Q}"`, state: bundle([prop(Q), prop(P, G)]) },
  { step: 3, command: 'APPLY induction l as [|x l IH]', state: bundle([bundle([prop(Q0), prop(Q1, ctx([['x', 'nat'], ['l', 'list nat']], [['IH', 'Q l']]))]), prop(P, G)]) },
  { step: 4, command: 'NEXT', state: bundle([prop(Q1, ctx([['x', 'nat'], ['l', 'list nat']], [['IH', 'Q l']])), prop(P, G)]), closedWith: 'sauto' },
  { step: 5, command: 'LET ?x = "1"', state: bundle([prop(Q1, ctx([['x', 'nat'], ['l', 'list nat']], [['IH', 'Q l']])), prop(P, G)]) },
  { step: 6, command: 'APPLY (intros a; simpl; rewrite IH)', state: bundle([prop('True', ctx([['x', 'nat'], ['l', 'list nat']], [['IH', 'Q l']])), prop(P, G)]) },
  { step: 7, command: 'END', state: prop(P, G) },
  { step: 8, command: 'APPLY (intros l; rewrite G)', state: prop(P2, ctx([['l', 'list nat']], [['G', Q]])) },
  { step: 9, command: 'END', state: bundle([]), closedWith: 'lia' },
];

describe('derivation of a proof', () => {
  it('keeps every goal, the command that acted on it and how it was closed', () => {
    const { root, irregularSteps } = buildDerivation(fold);
    expect(irregularSteps).toEqual([]);
    expect(root?.goal).toBe(P);
    expect(root?.action?.command).toBe(`HAVE G "${Q}"`);
    const [have, rest] = root?.children ?? [];
    expect(have?.goal).toBe(Q);
    expect(have?.action?.command).toBe('APPLY induction l as [|x l IH]');
    const [base, stepCase] = have?.children ?? [];
    // NEXT had to prove the base case: it was closed by automation, and says with what.
    expect(base).toMatchObject({ goal: Q0, status: 'closed', closedBy: { step: 4, command: 'NEXT', with: 'sauto' } });
    // The step case was proved by the tactic, then END removed it (no automation involved).
    expect(stepCase).toMatchObject({ goal: Q1, status: 'closed', action: { step: 6 }, closedBy: { step: 7, command: 'END' } });
    expect(stepCase?.closedBy?.with).toBeUndefined();
    expect(stepCase?.introduced).toEqual(['x', 'l', 'IH']);
    // G enters the main goal's context where the HAVE put it.
    expect(rest?.goal).toBe(P);
    expect(rest?.introduced).toEqual(['G']);
    expect(rest?.children[0]).toMatchObject({ goal: P2, status: 'closed', closedBy: { step: 9, with: 'lia' } });
    // A finished proof is a closed tree of 6 goals, not one node.
    expect(root?.status).toBe('closed');
    expect(derivationNodes(root)).toHaveLength(6);
  });

  it('shows open goals of an unfinished proof as open, and LET changes nothing', () => {
    const { root } = buildDerivation(fold.slice(0, 5));
    const nodes = derivationNodes(root);
    expect(nodes.filter((n) => n.status === 'open' && n.children.length === 0).map((n) => n.goal)).toEqual([Q1, P]);
    expect(root?.status).toBe('open');
  });

  it('reads the leaves of a state with their full contexts', () => {
    const leaves = stateLeaves(bundle([prop('A', ctx([['n', 'nat']])), prop('B')], ctx([], [['H', 'n = 0']])));
    expect(leaves.map((l) => [l.goal, l.context.map((e) => e.name)])).toEqual([['A', ['H', 'n']], ['B', ['H']]]);
  });

  it('rebuilds each proof of a channel from its exchanges, honouring REVERT and ignoring failures', () => {
    const exchanges = [
      ...fold.slice(0, 4).map((s) => ({ command: `3 ${s.command}`, response: s.state, err: '', step: s.step })),
      { command: 'APPLY nonsense', response: null, err: 'fail', step: 4 },
      { command: 'REVERT 2', response: fold[1]?.state, err: '', step: 2 },
      { command: 'APPLY induction l as [|x l IH]', response: fold[2]?.state, err: '', step: 3 },
      { command: 'GOAL "True"', response: prop('True'), err: '', step: 1 },
    ];
    const proofs = proofsFromExchanges(exchanges);
    expect(proofs).toHaveLength(2);
    expect(proofs[0]?.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(proofs[0]?.[0]?.command).toBe(`GOAL "${P}"`);
    expect(buildDerivation(proofs[0] ?? []).root?.children[0]?.children).toHaveLength(2);
  });

  it('pairs a transcript per channel, NEW_CHANNEL answered out of turn', () => {
    const items = [
      { kind: 'request' as const, channel: 0, text: `GOAL "${P}"` },
      { kind: 'request' as const, channel: 0, text: `HAVE G "${Q}"` },
      { kind: 'request' as const, channel: 0, text: 'NEW_CHANNEL' },
      { kind: 'response' as const, response: { CHANNEL: 0, RESPONSE: { ID: 1 }, ERR: '' } },
      { kind: 'response' as const, response: { CHANNEL: 0, RESPONSE: fold[0]?.state, ERR: '', STEP: 1 } },
      { kind: 'request' as const, channel: 1, text: '1 GOAL "True"' },
      { kind: 'response' as const, response: { CHANNEL: 0, RESPONSE: fold[1]?.state, ERR: '', STEP: 2, HAMMER_REPORT: { closedWith: 'lia' } } },
      { kind: 'response' as const, response: { CHANNEL: 1, RESPONSE: prop('True'), ERR: '', STEP: 1 } },
    ];
    const byChannel = exchangesByChannel(items);
    expect(byChannel.get(0)?.map((x) => [x.command, x.step, x.closedWith])).toEqual([[`GOAL "${P}"`, 1, undefined], [`HAVE G "${Q}"`, 2, 'lia']]);
    expect(byChannel.get(1)?.map((x) => x.command)).toEqual(['GOAL "True"']);
  });

  it('draws as a tree: commands on the goals they acted on, closed branches marked, the next open goal current', () => {
    const { root } = buildDerivation(fold.slice(0, 6));
    const view = derivationToTreeView(root!);
    expect(view.action).toBe(`HAVE G "${Q}"`);
    const [have, rest] = view.children ?? [];
    const [base, stepCase] = have?.children ?? [];
    expect(base).toMatchObject({ action: 'NEXT (sauto)', closed: true, status: 'proved' });
    expect(stepCase).toMatchObject({ action: 'APPLY (intros a; simpl; rewrite IH)', status: 'proved' });
    expect(stepCase?.closed).toBeUndefined();
    expect(stepCase?.ctxt.hyps.map((h) => h.name)).toEqual(['IH']);
    expect(rest).toMatchObject({ goal: P, status: 'open', current: 'goal' });
    expect(rest?.ctxt.hyps.map((h) => h.name)).toEqual(['G']);
  });

  it('says which hypotheses each step used, and where they entered', () => {
    const { root } = buildDerivation(fold);
    const [have, rest] = root?.children ?? [];
    // `induction l` names l (a variable the lemma quantifies over; not in context yet): nothing of the context.
    expect(have?.uses).toEqual([]);
    // `rewrite IH` names IH; `rewrite G` names G.
    expect(have?.children[1]?.uses).toEqual(['IH']);
    expect(rest?.uses).toEqual(['G']);
    const view = derivationToTreeView(root!);
    const uses = hypothesisUses(view);
    const restView = view.children?.[1] as TreeView;
    expect(uses).toContainEqual({ name: 'G', from: restView.id, to: restView.id });
    const stepCase = view.children?.[0]?.children?.[1] as TreeView;
    expect(flowOf(uses, stepCase.id).uses.map((u) => u.name)).toEqual(['IH']);
  });

  it('counts a hypothesis that a step changes or removes as used', () => {
    const c = (h: string) => ctx([['n', 'nat']], [['H', h]]);
    const steps: DerivationStep[] = [
      { step: 1, command: 'GOAL "forall n, n + 0 = 1 -> n = 1"', state: prop('forall n, n + 0 = 1 -> n = 1') },
      { step: 2, command: 'APPLY intros', state: prop('n = 1', c('n + 0 = 1')) },
      { step: 3, command: 'APPLY (simpl in *)', state: prop('n = 1', c('n = 1')) },
    ];
    const { root } = buildDerivation(steps);
    expect(root?.children[0]?.uses).toEqual(['H']);
    expect(root?.children[0]?.children[0]?.introduced).toEqual(['H']);
  });

  it('keeps node ids while the proof grows', () => {
    const small = derivationToTreeView(buildDerivation(fold.slice(0, 3)).root!);
    const big = derivationToTreeView(buildDerivation(fold).root!);
    const ids = (v: TreeView): number[] => [v.id, ...(v.children ?? []).flatMap(ids)];
    expect(ids(big)).toEqual(expect.arrayContaining(ids(small)));
  });
});

describe('summaries of large derivations', () => {
  const closed = (id: number, children: TreeView[] = [], action = `APPLY t${id}`): TreeView =>
    ({ id, kind: 'leaf', status: 'proved', closed: true, step: id, ctxt: { vars: [], hyps: [] }, goal: `G${id}`, action, children });
  const open = (id: number, children: TreeView[] = []): TreeView =>
    ({ id, kind: 'leaf', status: 'open', step: id, ctxt: { vars: [], hyps: [] }, goal: `G${id}`, children });
  const chain = (from: number, length: number, end: TreeView): TreeView => {
    let n = end;
    for (let i = length - 1; i >= 0; i--) n = closed(from + i, [n]);
    return n;
  };
  const count = (v: TreeView, collapsed: Set<number>): number => 1 + (collapsed.has(v.id) ? 0 : (v.children ?? []).reduce((a, c) => a + count(c, collapsed), 0));

  it('leaves a small tree alone', () => {
    const t = open(0, [chain(1, 10, closed(11)), open(12)]);
    expect(summariseTree(t, new Set(), 60)).toEqual({ view: t, collapsed: new Set() });
  });

  it('shows a long closed run as one summary node, and the whole run when the user opens it', () => {
    const t = open(0, [chain(1, 100, closed(101)), { ...open(200), current: 'goal' }]);
    const { view, collapsed } = summariseTree(t, new Set(), 20);
    const first = view.children?.[0] as TreeView;
    expect(first.id).toBe(1);
    const summary = first.children?.[0] as TreeView;
    expect(summary).toMatchObject({ id: summaryId(2), summary: { steps: 99 } });
    expect(summary.summary?.commands[0]).toBe('APPLY t2');
    expect(summary.children?.[0]?.id).toBe(101);
    expect(count(view, collapsed)).toBeLessThanOrEqual(20);
    // The open goal is never hidden.
    expect(view.children?.[1]?.id).toBe(200);
    const opened = summariseTree(t, new Set([summaryId(2)]), 20);
    expect(opened.view.children?.[0]?.children?.[0]?.id).toBe(2);
  });

  it('collapses big closed branches to fit the budget; a double-click opens one level', () => {
    const wide = (id: number): TreeView => closed(id, Array.from({ length: 30 }, (_, i) => closed(id * 100 + i)));
    const t = open(0, [wide(1), wide(2), wide(3), { ...open(4), current: 'goal' }]);
    const { collapsed } = summariseTree(t, new Set(), 40);
    expect(collapsed).toEqual(new Set([2, 3]));
    expect(count(t, collapsed)).toBeLessThanOrEqual(40);
    const toggled = summariseTree(t, new Set([3]), 40);
    expect(toggled.collapsed).toEqual(new Set([2]));
    // A branch the user collapses stays collapsed (and the room it leaves opens the next one).
    expect(summariseTree(t, new Set([1]), 40).collapsed).toEqual(new Set([1, 3]));
  });
});
