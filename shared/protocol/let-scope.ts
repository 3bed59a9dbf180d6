/**
 * The abbreviations (`LET ?x = "t"`) in force after one step of a channel's history. Each LET adds one
 * node that points at the scope before it, so a history of N LETs holds N nodes, not N copies of a
 * growing map (14,600 LETs on one channel used to exhaust the heap). Scopes are immutable: REVERT just
 * returns to an older one.
 */
export class LetScope {
  static readonly empty = new LetScope(undefined, '', '');

  private constructor(
    readonly parent: LetScope | undefined,
    readonly name: string,
    readonly term: string,
  ) {}

  /** The scope with `name` (re)bound to `term` (already expanded). */
  with(name: string, term: string): LetScope {
    return new LetScope(this, name, term);
  }
}

/**
 * A lookup table for one scope at a time, the last one asked for. Following the history forward (a LET
 * on the current scope) costs one `set`; anything else (REVERT, a new GOAL) rebuilds it from the chain,
 * in time linear in that scope's LETs.
 */
export class LetTable {
  private scope: LetScope = LetScope.empty;
  private readonly map = new Map<string, string>();

  /** The abbreviations of `scope`; valid until the next call. */
  view(scope: LetScope): ReadonlyMap<string, string> {
    if (scope === this.scope) return this.map;
    if (scope.parent !== undefined && scope.parent === this.scope) {
      this.map.set(scope.name, scope.term);
    } else {
      this.map.clear();
      const chain: LetScope[] = [];
      for (let s: LetScope = scope; s.parent !== undefined; s = s.parent) chain.push(s);
      // Oldest first, so a name bound twice ends with its newest term.
      for (let i = chain.length - 1; i >= 0; i--) this.map.set((chain[i] as LetScope).name, (chain[i] as LetScope).term);
    }
    this.scope = scope;
    return this.map;
  }
}
