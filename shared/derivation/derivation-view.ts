import type { TreeView } from '../proof-tree/proof-tree.ts';
import { toContext } from '../proof-tree/proof-tree.ts';
import type { DerivationNode } from './derivation.ts';

/**
 * A derivation as a tree the workbench's layout and canvas draw: every goal is a node showing its goal,
 * the context it adds to its parent's, and the command that acted on it (`by …`); goals END removed are
 * `closed` (drawn quieter), goals still to do are open, and the leftmost open goal is current.
 * Ids come from the step that created the goal and its place among that step's goals, so a node keeps its
 * id while the proof grows (collapsed branches stay collapsed, replay animates the new goals only);
 * `step` is the step that created the goal (so a node links to its editor line).
 */
export function derivationToTreeView(root: DerivationNode, currentKey?: string): TreeView {
  // The engine says which node is the state's current goal; a derivation rebuilt from text takes the first open one.
  let currentMarked = false;
  const convert = (n: DerivationNode): TreeView => {
    const own = n.context.filter((e) => n.introduced.includes(e.name));
    const view: TreeView = {
      id: derivationNodeId(n.key),
      kind: 'leaf',
      status: n.status === 'proved' || n.status === 'closed' ? 'proved' : 'open',
      step: n.createdAt,
      ctxt: toContext(own),
      goal: n.goal,
      // The whole context as the prover reported it for this goal: ancestors' contexts are not accumulated
      // (a step may replace or clear hypotheses, so concatenating would list stale ones, twice by name).
      scope: toContext(n.context),
    };
    const action = describeAction(n);
    if (action !== undefined) view.action = action;
    if (n.status === 'closed') view.closed = true;
    if (n.status === 'given-up') view.givenUp = true;
    if (n.uses.length > 0) view.uses = n.uses;
    if (n.children.length > 0) view.children = n.children.map(convert);
    const isCurrent = currentKey !== undefined ? n.key === currentKey : n.children.length === 0 && n.status === 'open' && !currentMarked;
    if (isCurrent) {
      view.current = 'goal';
      currentMarked = true;
    }
    return view;
  };
  return convert(root);
}

/** `APPLY induction l`, or for a goal END had to prove first, `END (sauto)`. */
function describeAction(n: DerivationNode): string | undefined {
  if (n.closedBy && !n.children.length && (!n.action || n.action.step === n.closedBy.step)) {
    return n.closedBy.with ? `${n.closedBy.command} (${n.closedBy.with})` : n.closedBy.command;
  }
  return n.action?.command;
}

/** `step.i` (the i-th goal step `step` produced) as a number: unique in one derivation, stable as it grows. */
export function derivationNodeId(key: string): number {
  const [step, i] = key.split('.').map(Number);
  return (step ?? 0) * 2 ** 20 + (i ?? 0);
}
