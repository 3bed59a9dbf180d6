import type { TreeView } from '../proof-tree/proof-tree.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * A deterministic bundle tree of `size` nodes (or `size - 1`: a bundle never has one child) with
 * realistic labels and contexts, for the layout and rendering benchmarks and the renderer's performance
 * mode (`?synthetic=N`). Not a proof.
 */
export function syntheticTree(size: number, seed = 1): TreeView {
  const rand = seededRandom(seed);
  let nextId = 0;
  const makeLeaf = (): TreeView => {
    const id = nextId++;
    return {
      id, kind: 'leaf', status: rand() < 0.6 ? 'proved' : 'open', step: 1 + (id % 97),
      ctxt: {
        vars: rand() < 0.4 ? [{ name: `x${id}`, type: rand() < 0.5 ? 'nat' : 'list nat' }] : [],
        hyps: rand() < 0.5 ? [{ name: `H${id}`, expr: `x${id} <= ${Math.floor(rand() * 100)} + n * m` }] : [],
      },
      goal: `P${id} (f x${id}) = g (S n) + ${Math.floor(rand() * 1000)}`,
    };
  };
  // Grow a shape first (children lists by id), then build the views: objects keep one shape each,
  // as JSON-parsed trees from the host do (deleting keys would make them slow dictionary objects).
  const protos: TreeView[] = [makeLeaf()];
  const kids: number[][] = [[]];
  const open: number[] = [0];
  let count = 1;
  while (size - count >= 2 && open.length > 0) {
    // Prefer recent leaves (deeper trees), sometimes an old one (wider trees).
    const pick = rand() < 0.7 ? open.length - 1 - Math.floor(rand() * Math.min(8, open.length)) : Math.floor(rand() * open.length);
    const id = open[pick] as number;
    open.splice(pick, 1);
    const k = Math.min(2 + Math.floor(rand() * 4), size - count);
    for (let j = 0; j < k; j++) {
      const child = makeLeaf();
      protos.push(child);
      kids.push([]);
      (kids[id] as number[]).push(child.id);
      open.push(child.id);
    }
    count += k;
  }
  const build = (id: number): TreeView => {
    const p = protos[id] as TreeView;
    const c = kids[id] as number[];
    if (c.length === 0) return p;
    return { id, kind: 'bundle', status: 'bundle', step: p.step, ctxt: p.ctxt, children: c.map(build) };
  };
  const root = build(0);
  markCurrent(root);
  return root;
}

function markCurrent(root: TreeView): void {
  let node: TreeView = root;
  let parent: TreeView | undefined;
  while (node.kind === 'bundle' && node.children?.[0]) {
    parent = node;
    node = node.children[0];
  }
  node.current = 'goal';
  if (parent) parent.current = 'bundle';
}
