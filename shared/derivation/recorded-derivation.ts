import type { ContextEntry } from '../proof-tree/proof-state.ts';
import type { LeafNode, ProofTree, TreeView } from '../proof-tree/proof-tree.ts';
import { currentLeaf, leaves } from '../proof-tree/proof-tree.ts';
import type { DerivationAction, DerivationNode, DerivationStatus } from './derivation.ts';
import { settle, usedNames } from './derivation.ts';

/**
 * The derivation as the engine records it while it runs the proof, instead of rebuilding it from text:
 * each step says which leaf of the tree (by node id) it acted on and which leaves it made, and the tree
 * after each step (the engine's history, shared structurally) holds each goal exactly as the prover
 * reported it. Nothing is matched on command text and no context is accumulated by name.
 */

/** What one step did to the tree, as the engine saw it. */
export interface StepAct {
  /** The command as the engine received it, shown in protocol form (`APPLY induction n`). */
  command: string;
  /** The leaf (tree node id) the step acted on; absent for steps that leave the goals alone (LET). */
  leaf?: number;
  /** The leaves (tree node ids) that replaced it, in order; empty: the step proved it. */
  produced?: number[];
  /** END/NEXT removed the (proved) leaf. */
  removed?: true;
  /** The tactic automation closed the goal with (the typed hammer report's `closedWith`). */
  closedWith?: string;
  /** The prover lists the goal (or one the step made) as given up (`admit`): it left the state unproved. */
  gaveUp?: true;
}

/** One step of an item as the builder reads it: the tree after it and what it did. */
export interface RecordedStep {
  step: number;
  tree: ProofTree;
  act?: StepAct;
  line?: number;
}

/** An item of a document: a proof (`GOAL` … the `END` that finishes it) or a declaration (`DEFINE`). */
export interface DocumentItem {
  /** 0-based position among the channel's items. */
  index: number;
  kind: 'proof' | 'define';
  /** The theorem's name (proofs). */
  name?: string;
  /** The theorem's statement, or the declaration's text (shortened by the client as it likes). */
  text: string;
  firstStep: number;
  lastStep: number;
  /** A proof the prover closed; a declaration is always finished. */
  finished: boolean;
}

export interface RecordedDerivation {
  root: DerivationNode;
  /** The node standing for the state's current goal (its leftmost leaf), if the proof is not finished. */
  currentKey?: string;
}

const leafById = (tree: ProofTree, id: number): LeafNode | undefined => leaves(tree).find((l) => l.id === id);

/**
 * The derivation of one proof from its recorded steps (the first is its GOAL). Each node's goal and
 * context are those of its leaf in the tree just before a step acted on it (so a node shows what the
 * prover reported for that goal then); goals still open show the last tree's.
 */
export function buildRecordedDerivation(steps: readonly RecordedStep[]): RecordedDerivation | undefined {
  const [first, ...rest] = steps;
  if (!first) return undefined;
  const start = currentLeaf(first.tree);
  if (!start) return undefined;
  const root = makeNode(`${first.step}.0`, start.goal, start.context, [], first.step);
  const live = new Map<number, DerivationNode>([[start.id, root]]);
  let before = first.tree;
  for (const s of rest) {
    const act = s.act;
    const target = act?.leaf === undefined ? undefined : live.get(act.leaf);
    if (!act || act.leaf === undefined || !target) {
      before = s.tree;
      continue;
    }
    const node = target;
    const was = leafById(before, act.leaf);
    if (was && was.status === 'open') {
      node.goal = was.goal;
      node.context = [...was.context];
    }
    const action: DerivationAction = { step: s.step, command: act.command, ...(s.line !== undefined ? { line: s.line } : {}) };
    if (act.produced) {
      node.action = action;
      const made = act.produced.map((id) => leafById(s.tree, id)).filter((l): l is LeafNode => l !== undefined);
      if (act.produced.length === 0) {
        // Proved, but the leaf stays in the tree until END removes it: END still acts on it.
        node.status = 'proved';
      } else {
        const children = made.map((l, i) => makeNode(`${s.step}.${i}`, l.goal, l.context, node.context, s.step));
        node.children = children;
        live.delete(act.leaf);
        made.forEach((l, i) => live.set(l.id, children[i] as DerivationNode));
      }
      node.uses = usedNames(node, `${act.command} ${act.closedWith ?? ''}`, node.children.map((c) => ({ goal: c.goal, context: c.context })));
    }
    if (act.removed) {
      node.status = 'closed';
      node.closedBy = { ...action, ...(act.closedWith !== undefined ? { with: act.closedWith } : {}) };
      live.delete(act.leaf);
    }
    if (act.gaveUp) {
      node.gaveUp = true;
      if (node.children.length === 0) node.status = 'given-up';
    }
    before = s.tree;
  }
  // Goals still open show what the prover reports for them now (a step may have instantiated an existential).
  for (const [id, node] of live) {
    const now = leafById(before, id);
    if (now && now.status === 'open' && node.children.length === 0) {
      node.goal = now.goal;
      node.context = [...now.context];
    }
  }
  settle(root);
  const current = currentLeaf(before);
  const currentNode = current ? live.get(current.id) : undefined;
  return currentNode ? { root, currentKey: currentNode.key } : { root };
}

function makeNode(key: string, goal: string, context: readonly ContextEntry[], parentContext: readonly ContextEntry[], createdAt: number): DerivationNode {
  const before = new Set(parentContext.map(entryKey));
  const introduced = context.filter((e) => !before.has(entryKey(e))).map((e) => e.name);
  const status: DerivationStatus = 'open';
  return { key, goal, context: [...context], introduced, createdAt, status, uses: [], children: [] };
}

const entryKey = (e: ContextEntry): string => `${e.kind}\u0000${e.name}\u0000${e.text}`;

/** What the workbench receives: an item's derivation drawn as a tree, and the document's items. */
export interface ItemDerivationView {
  items: DocumentItem[];
  item: number;
  upTo: number;
  /** Null for a declaration (it has no derivation). */
  tree: TreeView | null;
}

export type DerivationReply = ItemDerivationView | { unavailable: string };
