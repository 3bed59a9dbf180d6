import { classicalRewrite } from './classical-rewrites.ts';
import type { ClassicalRule } from './classical-rewrites.ts';
import { printCanonical } from './statement-printer.ts';
import { freeIdents, mapChildren } from './statement-term.ts';
import type { Binder, StatementSyntax, Term } from './statement-term.ts';

export interface S1Result {
  term: Term;
  text: string;
  /** Classical rewrites that actually changed the term (empty without `--classical`). */
  classicalRules: ClassicalRule[];
}

/**
 * S1: structural normalisation on the tree — `≠`/`≥`/`>` unfolded to `¬ =`/`≤`/`<`, optional classical
 * rewrites, ∧/∨ flattened and ordered, adjacent like quantifiers merged, bound variables renamed by
 * position. Every rewrite is an equivalence of the logic (intuitionistic unless marked classical).
 */
export function normaliseS1(term: Term, syntax: StatementSyntax, opts: { classical?: boolean; avoid?: ReadonlySet<string> } = {}): S1Result {
  const used = new Set<ClassicalRule>();
  let t = unfoldNotation(term);
  if (opts.classical) t = classicalRewrite(t, used);
  t = mergeBinders(flatten(t));
  const avoid = new Set([...freeIdents(t), ...(opts.avoid ?? [])]);
  t = alphaRename(t, avoid);
  // Sorting can reorder binders' first occurrence; iterate to a fixpoint (bounded).
  for (let k = 0; k < 4; k++) {
    const next = alphaRename(sortAssoc(t, syntax, avoid), avoid);
    if (printCanonical(next, syntax) === printCanonical(t, syntax)) break;
    t = next;
  }
  return { term: t, text: printCanonical(t, syntax), classicalRules: [...used].sort() };
}

function unfoldNotation(term: Term): Term {
  const t = mapChildren(term, unfoldNotation);
  if (t.kind !== 'infix') return t;
  if (t.op === '≠') return { kind: 'not', body: { kind: 'infix', op: '=', left: t.left, right: t.right } };
  if (t.op === '≥') return { kind: 'infix', op: '≤', left: t.right, right: t.left };
  if (t.op === '>') return { kind: 'infix', op: '<', left: t.right, right: t.left };
  return t;
}

function flatten(term: Term): Term {
  const t = mapChildren(term, flatten);
  if (t.kind === 'infix' && (t.op === '∧' || t.op === '∨')) {
    const op = t.op;
    const items = [t.left, t.right].flatMap((c) => (c.kind === 'assoc' && c.op === op ? c.items : [c]));
    return { kind: 'assoc', op, items };
  }
  return t;
}

function mergeBinders(term: Term): Term {
  const t = mapChildren(term, mergeBinders);
  if (t.kind === 'quant' && t.body.kind === 'quant' && t.body.q === t.q) {
    return { kind: 'quant', q: t.q, binders: [...t.binders, ...t.body.binders], body: t.body.body };
  }
  return t;
}

function sortAssoc(term: Term, syntax: StatementSyntax, avoid: ReadonlySet<string>): Term {
  const t = mapChildren(term, (c) => sortAssoc(c, syntax, avoid));
  if (t.kind !== 'assoc') return t;
  // Key by a locally renamed print, so the order does not depend on where the item sits.
  const keyed = t.items.map((i) => ({ i, k: printCanonical(alphaRename(i, avoid), syntax) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return { kind: 'assoc', op: t.op, items: keyed.map((x) => x.i) };
}

/** Rename every bound variable to `x1, x2, …` in order of binding (prefix chosen to avoid free names). */
export function alphaRename(term: Term, avoid: ReadonlySet<string>): Term {
  let prefix = 'x';
  while ([...avoid].some((n) => new RegExp(`^${prefix}\\d+$`, 'u').test(n))) prefix += '_';
  let counter = 0;
  const go = (t: Term, env: Map<string, string>): Term => {
    if (t.kind === 'ident') return env.has(t.name) ? { kind: 'ident', name: env.get(t.name) as string } : t;
    if (t.kind === 'quant' || t.kind === 'fun') {
      const inner = new Map(env);
      const binders: Binder[] = t.binders.map((b) => {
        const type = b.type ? go(b.type, inner) : null;
        const fresh = `${prefix}${++counter}`;
        inner.set(b.name, fresh);
        return { name: fresh, type };
      });
      const body = go(t.body, inner);
      return t.kind === 'quant' ? { kind: 'quant', q: t.q, binders, body } : { kind: 'fun', binders, body };
    }
    return mapChildren(t, (c) => go(c, env));
  };
  return go(term, new Map());
}
