import { mapChildren } from './statement-term.ts';
import type { Term } from './statement-term.ts';

/** Names of the classical rewrites, as they appear in reports. */
export type ClassicalRule = 'double-negation' | 'de-morgan' | 'quantifier-negation' | 'contrapositive';

/**
 * Classically valid rewrites (only under `--classical`): each pushes negations inwards or removes them,
 * so the rewriting terminates and both statements reach the same negation normal shape.
 */
export function classicalRewrite(term: Term, used: Set<ClassicalRule>): Term {
  const t = mapChildren(term, (c) => classicalRewrite(c, used));
  const again = (x: Term): Term => classicalRewrite(x, used);
  if (t.kind === 'not') {
    const b = t.body;
    if (b.kind === 'not') { used.add('double-negation'); return b.body; }
    if (b.kind === 'infix' && (b.op === '∧' || b.op === '∨')) {
      used.add('de-morgan');
      return again({ kind: 'infix', op: b.op === '∧' ? '∨' : '∧', left: { kind: 'not', body: b.left }, right: { kind: 'not', body: b.right } });
    }
    if (b.kind === 'quant') {
      used.add('quantifier-negation');
      return again({ kind: 'quant', q: b.q === 'forall' ? 'exists' : 'forall', binders: b.binders, body: { kind: 'not', body: b.body } });
    }
  }
  if (t.kind === 'infix' && t.op === '→' && t.left.kind === 'not' && t.right.kind === 'not') {
    used.add('contrapositive');
    return { kind: 'infix', op: '→', left: t.right.body, right: t.left.body };
  }
  return t;
}
