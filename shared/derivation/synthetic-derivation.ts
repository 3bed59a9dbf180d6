import type { TreeView } from '../proof-tree/proof-tree.ts';
import { seededRandom } from '../tree-layout/seeded-random.ts';

const ONE_GOAL = ['APPLY (rewrite Nat.add_0_r)', 'APPLY (simpl; intros)', 'APPLY (rewrite IH)', 'APPLY f_equal', 'APPLY (unfold sum)'];
const SPLIT = ['APPLY split', 'APPLY induction l as [|x l IH]', 'APPLY (destruct b)', 'HAVE H "m <= n + m"'];
const CLOSE = ['END (lia)', 'END (reflexivity)', 'END (srun eauto use: last_length)', 'END (auto)'];

/**
 * A deterministic derivation of `size` goals as the derivation view draws it (`derivationToTreeView`'s
 * shape): mostly finished, with long runs of one-goal steps, case splits, hypotheses used below where they
 * enter, and one open path whose leftmost open leaf is current. For the readability benchmark
 * (`?synthetic=N&shape=derivation`), not a proof.
 */
export function syntheticDerivation(size: number, seed = 7): TreeView {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  let made = 0;
  // Grows one goal and its subtree with at most `budget` goals in all; `open` marks the unfinished path.
  const grow = (budget: number, depth: number, open: boolean): TreeView => {
    const id = made++;
    const node: TreeView = {
      id, kind: 'leaf', status: open ? 'open' : 'proved', step: 1 + id,
      ctxt: rand() < 0.3 ? { vars: [], hyps: [{ name: `H${id}`, expr: `x${id} <= ${Math.floor(rand() * 100)} + n` }] } : { vars: [], hyps: [] },
      goal: `sum (map f l${id % 13}) + ${Math.floor(rand() * 1000)} = fold_right Nat.add 0 (x${depth} :: l)`,
    };
    if (!open) node.closed = true;
    const left = budget - 1;
    if (left <= 0) {
      if (open) node.current = 'goal';
      else node.action = pick(CLOSE);
      return node;
    }
    if (rand() < 0.35 && left >= 2) {
      const k = Math.min(left, 2 + Math.floor(rand() * 2));
      node.action = pick(SPLIT);
      node.children = [];
      let rest = left;
      for (let i = 0; i < k; i++) {
        const later = k - 1 - i;
        const share = later === 0 ? rest : Math.min(rest - later, Math.max(1, Math.floor(rest * (0.2 + rand() * 0.5))));
        rest -= share;
        // The open path follows the last branch: the earlier ones are finished.
        node.children.push(grow(share, depth + 1, open && i === k - 1));
      }
    } else {
      node.action = pick(ONE_GOAL);
      if (rand() < 0.2 && depth > 0) node.uses = [`H${Math.max(0, id - 1 - Math.floor(rand() * 5))}`];
      node.children = [grow(left, depth + 1, open)];
    }
    return node;
  };
  // Deep recursion is bounded: a one-goal run of 10,000 is 10,000 frames, which V8 handles.
  return grow(Math.max(1, size), 0, true);
}
