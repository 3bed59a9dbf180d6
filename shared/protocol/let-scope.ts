/**
 * The abbreviations (`LET ?x = "t"`) in force after one step of a channel's history. Each LET adds one
 * node that points at the scope before it, so a history of N LETs holds N nodes, not N copies of a
 * growing map (14,600 LETs on one channel used to exhaust the heap). Scopes are immutable: REVERT just
 * returns to an older one.
 */
export class LetScope {
  static readonly empty = new LetScope(undefined, '', '', 0);

  private constructor(
    readonly parent: LetScope | undefined,
    readonly name: string,
    readonly term: string,
    /** LETs in the chain up to this one. */
    readonly depth: number,
  ) {}

  /** The scope with `name` (re)bound to `term` (already expanded). */
  with(name: string, term: string): LetScope {
    return new LetScope(this, name, term, this.depth + 1);
  }
}

/**
 * A lookup table for one scope at a time, the last one asked for. Following the history forward (a LET
 * on the current scope) costs one `set`, going back k LETs along it (REVERT) k undos; anything else (a
 * new GOAL, another branch) rebuilds it from the chain, in time linear in that scope's LETs. (Rebuilding
 * on every REVERT made REVERT n-1 + LET, repeated on a long chain, quadratic.)
 */
/**
 * The abbreviations in force: `get` is undefined for a name not bound; `size` is 0 when none is (it may
 * count names a REVERT unbound, see LetTable).
 */
export interface Abbreviations {
  get(name: string): string | undefined;
  readonly size: number;
}

export class LetTable {
  private scope: LetScope = LetScope.empty;
  // An unbound name is set to undefined, not deleted: V8 rehashes a large Map on almost every
  // delete-then-set of one key (50,000 REVERT+LET pairs on 50,000 LETs took 10 s instead of 30 ms).
  private readonly map = new Map<string, string | undefined>();
  /** The scope the map was last rebuilt for, and what each forward step since replaced (to undo it). */
  private base: LetScope = LetScope.empty;
  private readonly undo: { name: string; previous: string | undefined }[] = [];

  /** The abbreviations of `scope`; valid until the next call. */
  view(scope: LetScope): Abbreviations {
    if (scope === this.scope) return this.map;
    if (scope.parent !== undefined && scope.parent === this.scope) {
      this.undo.push({ name: scope.name, previous: this.map.get(scope.name) });
      this.map.set(scope.name, scope.term);
    } else if (scope.depth >= this.base.depth && scope.depth < this.scope.depth && this.ancestor(scope.depth) === scope) {
      for (let k = this.scope.depth - scope.depth; k > 0; k--) {
        const step = this.undo.pop() as { name: string; previous: string | undefined };
        this.map.set(step.name, step.previous);
      }
    } else {
      this.base = scope;
      this.undo.length = 0;
      this.map.clear();
      const chain: LetScope[] = [];
      for (let s: LetScope = scope; s.parent !== undefined; s = s.parent) chain.push(s);
      // Oldest first, so a name bound twice ends with its newest term.
      for (let i = chain.length - 1; i >= 0; i--) this.map.set((chain[i] as LetScope).name, (chain[i] as LetScope).term);
    }
    this.scope = scope;
    return this.map;
  }

  /** The current scope's ancestor at `depth` (at most the current depth). */
  private ancestor(depth: number): LetScope {
    let s = this.scope;
    while (s.depth > depth && s.parent !== undefined) s = s.parent;
    return s;
  }
}
