import type { Context, Goal } from '../../../shared/proof-tree/proof-state.ts';
import type { MinilangItems, MinilangTree } from './isa-repl-client.ts';

/**
 * Minilang's printed proof tree as the seed's proof state. Minilang prints `[0, (vars, facts), goal]` for a
 * proposition, `[1, (vars, facts), [subtrees]]` for a bundle and `[2, subtree]` for a block (the goal a
 * HAVE or CONSIDER opened); the seed has no blocks, so a block is its subtree. Then the seed's
 * normalisation: a bundle with one child is that child with both contexts (the bundle's first), and no
 * node but the root is an empty bundle. A solved proof is Minilang's empty bundle, the seed's too.
 */
export function toSeedState(tree: MinilangTree): Goal {
  return normalise(convert(tree), true);
}

function convert(tree: MinilangTree): Goal {
  switch (tree[0]) {
    case 0: return { ctxt: context(tree[1]), goal: tree[2] };
    case 1: return { ctxt: context(tree[1]), goal: tree[2].map(convert) };
    case 2: return convert(tree[1]);
  }
}

function context([vars, facts]: MinilangItems): Context {
  return {
    vars: Object.entries(vars).map(([name, type]) => ({ name, type })),
    hyps: Object.entries(facts).map(([name, expr]) => ({ name, expr })),
  };
}

function normalise(goal: Goal, root: boolean): Goal {
  if (typeof goal.goal === 'string') return goal;
  const children = goal.goal.map((g) => normalise(g, false)).filter((g) => !(Array.isArray(g.goal) && g.goal.length === 0));
  if (children.length === 1) {
    const only = children[0] as Goal;
    return { ...only, ctxt: { vars: [...goal.ctxt.vars, ...only.ctxt.vars], hyps: [...goal.ctxt.hyps, ...only.ctxt.hyps] } };
  }
  if (children.length === 0 && !root) return { ctxt: goal.ctxt, goal: [] };
  return { ctxt: goal.ctxt, goal: children };
}
