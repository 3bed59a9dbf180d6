import { goalNameOf } from '../../shared/protocol/goal-name.ts';

/** A name the document declares above a line: a theorem (`GOAL name "…"`) or a `DEFINE`d constant, type or constructor-free fixpoint. */
export interface DocumentName {
  name: string;
  kind: 'theorem' | 'definition';
  line: number;
}

const DEFINE_LINE = /^\s*(?:[0-9]+\s+)?DEFINE\s+"/;
// Coq's identifiers (unicode letters and digits, primes): `\w` would cut `αβ'` to nothing.
const DECLARED = /(?<![\p{L}\p{N}_'])(?:Definition|Fixpoint|CoFixpoint|Inductive|CoInductive|Record|Structure|Lemma|Theorem|Corollary|Function)\s+([\p{L}_][\p{L}\p{N}_']*)/gu;

/** The names a tactic on line `before` may use from the document itself (items above it), nearest last. */
export function documentNames(lines: readonly string[], before: number): DocumentName[] {
  const out: DocumentName[] = [];
  for (let n = 1; n < before && n <= lines.length; n++) {
    const text = lines[n - 1] as string;
    const goal = goalNameOf(text);
    if (goal !== undefined) out.push({ name: goal, kind: 'theorem', line: n });
    else if (DEFINE_LINE.test(text)) for (const m of text.matchAll(DECLARED)) if (m[1]) out.push({ name: m[1], kind: 'definition', line: n });
  }
  return out;
}
