/**
 * The statement fragment both syntaxes share, as a tree. Fidelity tiers compare these trees rather than
 * strings, so notation, spacing and redundant parentheses never reach a comparison.
 */
export type StatementSyntax = 'coq' | 'lean';

export type Quantifier = 'forall' | 'exists';

/** Infix operators in their canonical (Unicode) spelling. */
export type InfixOp =
  | '↔' | '→' | '∧' | '∨'
  | '=' | '≠' | '<' | '≤' | '>' | '≥' | '∣'
  | '+' | '-' | '*' | '/' | '%' | 'mod' | '^' | '::' | '++';

export interface Binder {
  name: string;
  /** `null` when the statement leaves the type to inference. */
  type: Term | null;
}

export type Term =
  | { kind: 'ident'; name: string }
  | { kind: 'num'; value: string }
  | { kind: 'app'; fn: Term; args: Term[] }
  | { kind: 'infix'; op: InfixOp; left: Term; right: Term }
  /** n-ary conjunction/disjunction; only S1 produces these (the parser keeps binary `infix`). */
  | { kind: 'assoc'; op: '∧' | '∨'; items: Term[] }
  | { kind: 'not'; body: Term }
  | { kind: 'neg'; body: Term }
  | { kind: 'quant'; q: Quantifier; binders: Binder[]; body: Term }
  | { kind: 'fun'; binders: Binder[]; body: Term }
  | { kind: 'list'; items: Term[] }
  /** Coq scope delimiter `(…)%Z`. */
  | { kind: 'scope'; body: Term; scope: string }
  /** Lean type ascription `(e : T)`. */
  | { kind: 'ascribe'; body: Term; type: Term };

export const ident = (name: string): Term => ({ kind: 'ident', name });

/** Free identifiers of a term (bound variables excluded). */
export function freeIdents(term: Term, bound: ReadonlySet<string> = new Set(), out = new Set<string>()): Set<string> {
  const withBinders = (binders: Binder[], body: Term): void => {
    const inner = new Set(bound);
    for (const b of binders) {
      if (b.type) freeIdents(b.type, inner, out);
      inner.add(b.name);
    }
    freeIdents(body, inner, out);
  };
  switch (term.kind) {
    case 'ident': if (!bound.has(term.name)) out.add(term.name); break;
    case 'num': break;
    case 'app': freeIdents(term.fn, bound, out); for (const a of term.args) freeIdents(a, bound, out); break;
    case 'infix': freeIdents(term.left, bound, out); freeIdents(term.right, bound, out); break;
    case 'assoc': case 'list': for (const t of term.items) freeIdents(t, bound, out); break;
    case 'not': case 'neg': case 'scope': freeIdents(term.body, bound, out); break;
    case 'ascribe': freeIdents(term.body, bound, out); freeIdents(term.type, bound, out); break;
    case 'quant': case 'fun': withBinders(term.binders, term.body); break;
  }
  return out;
}

/** Structural map over immediate children; used by the rewriting passes. */
export function mapChildren(term: Term, f: (t: Term) => Term): Term {
  const mapBinders = (bs: Binder[]): Binder[] => bs.map((b) => ({ name: b.name, type: b.type ? f(b.type) : null }));
  switch (term.kind) {
    case 'ident': case 'num': return term;
    case 'app': return { kind: 'app', fn: f(term.fn), args: term.args.map(f) };
    case 'infix': return { kind: 'infix', op: term.op, left: f(term.left), right: f(term.right) };
    case 'assoc': return { kind: 'assoc', op: term.op, items: term.items.map(f) };
    case 'list': return { kind: 'list', items: term.items.map(f) };
    case 'not': return { kind: 'not', body: f(term.body) };
    case 'neg': return { kind: 'neg', body: f(term.body) };
    case 'scope': return { kind: 'scope', body: f(term.body), scope: term.scope };
    case 'ascribe': return { kind: 'ascribe', body: f(term.body), type: f(term.type) };
    case 'quant': return { kind: 'quant', q: term.q, binders: mapBinders(term.binders), body: f(term.body) };
    case 'fun': return { kind: 'fun', binders: mapBinders(term.binders), body: f(term.body) };
  }
}
