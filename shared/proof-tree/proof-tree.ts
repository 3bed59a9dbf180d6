import type { Context, ContextEntry, Goal, OpenGoal } from './proof-state.ts';

/**
 * Arbor's bundle tree (seed 000). Leaves keep the *full* flat context the prover reports for their goal;
 * the seed's per-node contexts are derived from those (see `nodeContexts`), so a node's context is
 * exactly what all goals below it share and its children add only what is theirs. The tree is immutable:
 * every operation returns a new tree sharing unchanged subtrees, which makes step history cheap.
 */
export type LeafStatus = 'open' | 'proved';

export interface LeafNode {
  readonly kind: 'leaf';
  readonly id: number;
  readonly status: LeafStatus;
  readonly context: readonly ContextEntry[];
  readonly goal: string;
  /** The step that created this node (for linking tree nodes to editor lines). */
  readonly step: number;
}

export interface BundleNode {
  readonly kind: 'bundle';
  readonly id: number;
  readonly children: readonly ProofNode[];
  readonly step: number;
}

export type ProofNode = LeafNode | BundleNode;

export interface ProofTree {
  /** A finished proof is a bundle with no children (the only place an empty bundle may stand). */
  readonly root: ProofNode;
  readonly nextId: number;
}

export const PROVED_GOAL = 'True';

export function initialTree(goal: OpenGoal, step: number): ProofTree {
  return { root: leaf(0, goal, step), nextId: 1 };
}

export function isFinished(tree: ProofTree): boolean {
  return tree.root.kind === 'bundle' && tree.root.children.length === 0;
}

/** The leftmost leaf (the seed's `@current_goal`), or undefined for a finished proof. */
export function currentLeaf(tree: ProofTree): LeafNode | undefined {
  let node: ProofNode | undefined = tree.root;
  while (node && node.kind === 'bundle') node = node.children[0];
  return node;
}

/** The path of nodes from the root to the current leaf. */
export function currentPath(tree: ProofTree): ProofNode[] {
  const path: ProofNode[] = [];
  let node: ProofNode | undefined = tree.root;
  while (node) {
    path.push(node);
    node = node.kind === 'bundle' ? node.children[0] : undefined;
  }
  return path;
}

export function leaves(tree: ProofTree): LeafNode[] {
  const out: LeafNode[] = [];
  const visit = (node: ProofNode): void => {
    if (node.kind === 'leaf') out.push(node);
    else node.children.forEach(visit);
  };
  visit(tree.root);
  return out;
}

export function openLeaves(tree: ProofTree): LeafNode[] {
  return leaves(tree).filter((l) => l.status === 'open');
}

/**
 * Replaces the current leaf by the goals a step produced on it: none → the leaf is proved (it stays
 * until `END` removes it), one → a new leaf, several → a bundle of them. Then normalises.
 */
export function replaceCurrentLeaf(tree: ProofTree, goals: readonly OpenGoal[], step: number): ProofTree {
  const current = currentLeaf(tree);
  if (!current) throw new Error('no current goal');
  let nextId = tree.nextId;
  let replacement: ProofNode;
  if (goals.length === 0) {
    replacement = { ...current, status: 'proved', step };
  } else if (goals.length === 1) {
    replacement = leaf(current.id, goals[0] as OpenGoal, step);
  } else {
    const children = goals.map((g) => leaf(nextId++, g, step));
    replacement = { kind: 'bundle', id: current.id, children, step };
  }
  return { root: replaceLeftmost(tree.root, replacement), nextId };
}

/** `END`'s structural part: removes the current leaf (which must be proved) and normalises. */
export function removeCurrentLeaf(tree: ProofTree): ProofTree {
  const root = removeLeftmost(tree.root) ?? { kind: 'bundle', id: tree.root.id, children: [], step: tree.root.step };
  return { root: collapse(root), nextId: tree.nextId };
}

/** Gives the open leaves, in order, the goals a prover now reports for them (counts must agree). */
export function refreshOpenLeaves(tree: ProofTree, goals: readonly OpenGoal[]): ProofTree {
  let i = 0;
  const visit = (node: ProofNode): ProofNode => {
    if (node.kind === 'leaf') {
      if (node.status !== 'open') return node;
      const g = goals[i++];
      if (!g) throw new Error('fewer goals than open leaves');
      return sameGoal(node, g) ? node : { ...node, context: g.context, goal: g.goal };
    }
    const children = node.children.map(visit);
    return children.every((c, k) => c === node.children[k]) ? node : { ...node, children };
  };
  const root = visit(tree.root);
  if (i !== goals.length) throw new Error('more goals than open leaves');
  return root === tree.root ? tree : { root, nextId: tree.nextId };
}

function leaf(id: number, goal: OpenGoal, step: number): LeafNode {
  return { kind: 'leaf', id, status: 'open', context: goal.context, goal: goal.goal, step };
}

function sameGoal(node: LeafNode, goal: OpenGoal): boolean {
  return node.goal === goal.goal && node.context.length === goal.context.length &&
    node.context.every((e, k) => sameEntry(e, goal.context[k] as ContextEntry));
}

function sameEntry(a: ContextEntry, b: ContextEntry): boolean {
  return a.kind === b.kind && a.name === b.name && a.text === b.text;
}

function replaceLeftmost(node: ProofNode, replacement: ProofNode): ProofNode {
  if (node.kind === 'leaf') return replacement;
  const [first, ...rest] = node.children;
  if (!first) return node;
  return collapse({ ...node, children: [replaceLeftmost(first, replacement), ...rest] });
}

function removeLeftmost(node: ProofNode): ProofNode | undefined {
  if (node.kind === 'leaf') return undefined;
  const [first, ...rest] = node.children;
  if (!first) return undefined;
  const reduced = removeLeftmost(first);
  const children = reduced ? [collapse(reduced), ...rest] : rest;
  return children.length === 0 ? undefined : { ...node, children };
}

/** The seed's normalisation: a bundle with one child is that child (contexts merge by derivation). */
function collapse(node: ProofNode): ProofNode {
  if (node.kind === 'bundle' && node.children.length === 1) return collapse(node.children[0] as ProofNode);
  return node;
}

/**
 * Each node's own context: what every leaf below it shares (in the first leaf's order), less what its
 * parent already has. Returned as a map from node id.
 */
export function nodeContexts(tree: ProofTree): Map<number, ContextEntry[]> {
  const shared = new Map<number, ContextEntry[]>();
  const collect = (node: ProofNode): ContextEntry[] => {
    let result: ContextEntry[];
    if (node.kind === 'leaf') result = [...node.context];
    else {
      const lists = node.children.map(collect);
      result = intersect(lists);
    }
    shared.set(node.id, result);
    return result;
  };
  collect(tree.root);
  const own = new Map<number, ContextEntry[]>();
  const assign = (node: ProofNode, inherited: readonly ContextEntry[]): void => {
    const mine = shared.get(node.id) ?? [];
    const keys = new Set(inherited.map(entryKey));
    own.set(node.id, mine.filter((e) => !keys.has(entryKey(e))));
    if (node.kind === 'bundle') node.children.forEach((c) => assign(c, mine));
  };
  assign(tree.root, []);
  return own;
}

function entryKey(e: ContextEntry): string {
  return `${e.kind}\u0000${e.name}\u0000${e.text}`;
}

function intersect(lists: ContextEntry[][]): ContextEntry[] {
  const [first, ...others] = lists;
  if (!first) return [];
  const sets = others.map((l) => new Set(l.map(entryKey)));
  return first.filter((e) => sets.every((s) => s.has(entryKey(e))));
}

export function toContext(entries: readonly ContextEntry[]): Context {
  return {
    vars: entries.filter((e) => e.kind === 'var').map((e) => ({ name: e.name, type: e.text })),
    hyps: entries.filter((e) => e.kind === 'hyp').map((e) => ({ name: e.name, expr: e.text })),
  };
}

/** The seed's JSON embedding: a proved leaf prints as `True`; a finished proof is the empty bundle. */
export function toStateJson(tree: ProofTree): Goal {
  const contexts = nodeContexts(tree);
  const render = (node: ProofNode): Goal => {
    const ctxt = toContext(contexts.get(node.id) ?? []);
    if (node.kind === 'leaf') return { ctxt, goal: node.status === 'proved' ? PROVED_GOAL : node.goal };
    return { ctxt, goal: node.children.map(render) };
  };
  return render(tree.root);
}

/** A richer view for the workbench: ids, statuses and the step that made each node. */
export interface TreeView {
  id: number;
  kind: 'leaf' | 'bundle';
  status: LeafStatus | 'bundle';
  step: number;
  ctxt: Context;
  goal?: string;
  children?: TreeView[];
  /** True on the current goal and on the current bundle (its parent). */
  current?: 'goal' | 'bundle';
  /** Derivation views only: the command that acted on this goal (e.g. `APPLY induction l`). */
  action?: string;
  /** Derivation views only: the goal is done and removed from the state (shown quieter than open goals). */
  closed?: true;
  /** Derivation views only: the goal was given up (`admit`; the prover's given-up list), or one below it was: not proved. */
  givenUp?: true;
  /** Derivation views only: names of the context the command used (it names them, or they changed below). */
  uses?: string[];
  /** Derivation views only: the goal's whole context exactly as the prover reported it (not accumulated from ancestors). */
  scope?: Context;
  /** Derivation views only: a summary standing for a run of closed steps (double-click shows them). */
  summary?: { steps: number; commands: string[] };
  /**
   * Replayed transcripts only: a request that failed on this goal (`action` is the request, `error` the
   * prover's answer), or a branch a REVERT dropped (`inside`: below the branch's first node).
   */
  attempt?: { kind: 'failed' | 'reverted'; error?: string; inside?: true };
}

export function toTreeView(tree: ProofTree): TreeView {
  const contexts = nodeContexts(tree);
  const path = currentPath(tree);
  const currentGoal = path[path.length - 1];
  const currentBundle = path[path.length - 2];
  const render = (node: ProofNode): TreeView => {
    const view: TreeView = { id: node.id, kind: node.kind, status: node.kind === 'leaf' ? node.status : 'bundle', step: node.step, ctxt: toContext(contexts.get(node.id) ?? []) };
    if (node === currentGoal && node.kind === 'leaf') view.current = 'goal';
    else if (node === currentBundle) view.current = 'bundle';
    if (node.kind === 'leaf') view.goal = node.goal;
    else view.children = node.children.map(render);
    return view;
  };
  return render(tree.root);
}
