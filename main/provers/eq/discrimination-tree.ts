/**
 * A (non-perfect) discrimination tree: retrieves the stored patterns that may generalise a query
 * term. Variables in patterns are one wildcard key; candidates still need a real match, because
 * non-linear patterns are not checked here.
 */
import type { Term } from './term.ts';

interface DtNode<V> {
  children: Map<number, DtNode<V>>;
  values: V[];
}

const WILDCARD = -1;

export class DiscriminationTree<V> {
  private readonly root: DtNode<V> = { children: new Map(), values: [] };
  private flatSyms: number[] = [];
  private flatSkip: number[] = [];

  insert(pattern: Term, value: V): void {
    let node = this.root;
    const walk = (t: Term): void => {
      const key = t.f < 0 ? WILDCARD : t.f;
      let next = node.children.get(key);
      if (!next) {
        next = { children: new Map(), values: [] };
        node.children.set(key, next);
      }
      node = next;
      if (t.f >= 0) for (const a of t.args) walk(a);
    };
    walk(pattern);
    node.values.push(value);
  }

  /** Removes values for which `dead` holds (call occasionally; retrieval callers also filter). */
  prune(dead: (v: V) => boolean): void {
    const go = (n: DtNode<V>): void => {
      n.values = n.values.filter((v) => !dead(v));
      for (const c of n.children.values()) go(c);
    };
    go(this.root);
  }

  /** Calls `visit` for every stored value whose pattern may generalise `t`; stops when it returns true. */
  retrieve(t: Term, visit: (v: V) => boolean): boolean {
    const syms = this.flatSyms;
    const skip = this.flatSkip;
    syms.length = 0;
    skip.length = 0;
    const flatten = (u: Term): void => {
      const i = syms.length;
      syms.push(u.f);
      skip.push(0);
      for (const a of u.args) flatten(a);
      skip[i] = syms.length;
    };
    flatten(t);
    const n = syms.length;
    const symsCopy = syms.slice();
    const skipCopy = skip.slice();
    const go = (node: DtNode<V>, i: number): boolean => {
      if (i === n) {
        for (const v of node.values) if (visit(v)) return true;
        return false;
      }
      const wild = node.children.get(WILDCARD);
      if (wild && go(wild, skipCopy[i] as number)) return true;
      const f = symsCopy[i] as number;
      if (f >= 0) {
        const exact = node.children.get(f);
        if (exact && go(exact, i + 1)) return true;
      }
      return false;
    };
    return go(this.root, 0);
  }
}
