import type { TreeView } from '../proof-tree/proof-tree.ts';

/**
 * The proof state a derivation stands at, as the Goals panel reads it: a bundle of the goals still open
 * (leaves not acted on), the current one first, each with its whole context as the prover reported it
 * there (`scope`), not rebuilt by accumulating ancestors. A finished derivation gives an empty bundle.
 */
export function derivationOpenGoals(view: TreeView): TreeView {
  const open: TreeView[] = [];
  const stack: TreeView[] = [view];
  while (stack.length) {
    const n = stack.pop() as TreeView;
    const kids = n.children ?? [];
    if (kids.length === 0 && n.status === 'open' && !n.closed && n.action === undefined) {
      open.push({ id: n.id, kind: 'leaf', status: 'open', step: n.step, ctxt: n.scope ?? n.ctxt, goal: n.goal ?? '', ...(n.current === 'goal' ? { current: 'goal' as const } : {}) });
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as TreeView);
  }
  // The current goal first; the others in the derivation's left-to-right order.
  const cur = open.findIndex((g) => g.current === 'goal');
  if (cur > 0) open.unshift(...open.splice(cur, 1));
  return { id: 0, kind: 'bundle', status: 'bundle', step: view.step, ctxt: { vars: [], hyps: [] }, children: open };
}
