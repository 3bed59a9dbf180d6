/**
 * A perfect discrimination tree: retrieves stored patterns that generalise a query term together
 * with the matching substitution. Pattern variables are keys of their own (by index), bound on the
 * way down and compared by pointer (terms are hash-consed), so non-linear patterns are decided in
 * the tree and a hit needs no second `match`.
 */
import type { Term } from './term.ts';

interface PdtNode<V> {
  fun: (PdtNode<V> | undefined)[];
  vars: { v: number; node: PdtNode<V> }[];
  values: V[];
}

const node = <V>(): PdtNode<V> => ({ fun: [], vars: [], values: [] });

export class PerfectIndex<V> {
  private root: PdtNode<V> = node();
  private size = 0;
  /** The substitution handed to `visit`: pattern variable index → bound subterm. */
  readonly subst: (Term | undefined)[] = [];
  private readonly qTerms: Term[] = [];
  private readonly qSkip: number[] = [];
  private qLen = 0;

  get count(): number {
    return this.size;
  }

  insert(pattern: Term, value: V): void {
    let n = this.root;
    const walk = (t: Term): void => {
      if (t.f < 0) {
        const v = -t.f - 1;
        let e = n.vars.find((x) => x.v === v);
        if (!e) {
          e = { v, node: node() };
          n.vars.push(e);
        }
        n = e.node;
        return;
      }
      let next = n.fun[t.f];
      if (!next) {
        next = node();
        n.fun[t.f] = next;
      }
      n = next;
      for (const a of t.args) walk(a);
    };
    walk(pattern);
    n.values.push(value);
    this.size++;
  }

  /** Drops values for which `dead` holds. */
  prune(dead: (v: V) => boolean): void {
    let size = 0;
    const go = (n: PdtNode<V>): void => {
      n.values = n.values.filter((v) => !dead(v));
      size += n.values.length;
      for (const c of n.fun) if (c) go(c);
      for (const c of n.vars) go(c.node);
    };
    go(this.root);
    this.size = size;
  }

  private flatten(t: Term): void {
    const i = this.qLen++;
    this.qTerms[i] = t;
    for (const a of t.args) this.flatten(a);
    this.qSkip[i] = this.qLen;
  }

  /**
   * Calls `visit(value, subst)` for every stored pattern that matches `t` (subst is only valid during
   * the call); stops at the first `true`. Not re-entrant: `visit` must not retrieve from this index.
   */
  retrieve(t: Term, visit: (v: V, subst: readonly (Term | undefined)[]) => boolean): boolean {
    this.qLen = 0;
    this.flatten(t);
    return this.go(this.root, 0, visit);
  }

  private go(n: PdtNode<V>, i: number, visit: (v: V, subst: readonly (Term | undefined)[]) => boolean): boolean {
    if (i === this.qLen) {
      for (const v of n.values) if (visit(v, this.subst)) return true;
      return false;
    }
    const q = this.qTerms[i] as Term;
    const s = this.subst;
    for (const e of n.vars) {
      const b = s[e.v];
      if (b === undefined) {
        s[e.v] = q;
        const hit = this.go(e.node, this.qSkip[i] as number, visit);
        s[e.v] = undefined;
        if (hit) return true;
      } else if (b === q && this.go(e.node, this.qSkip[i] as number, visit)) return true;
    }
    if (q.f >= 0) {
      const c = n.fun[q.f];
      if (c && this.go(c, i + 1, visit)) return true;
    }
    return false;
  }
}
