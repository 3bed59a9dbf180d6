import { escapeRegExp } from '../../../../shared/protocol/name-pattern.ts';
import type { Conjecture } from './lemma-discovery.ts';
import { splitEquation, topLevelWords } from './lemma-discovery.ts';

/**
 * Lemma discovery from the goal induction got stuck on (issue 25), not from templates: Boyer and Moore's
 * cross-fertilisation and generalisation. Given a stuck subgoal `lhs = rhs` and its induction hypotheses
 * `L = R`, first rewrite R into L on one side (`reverse (snoc (reverse l) a) = a :: l` with
 * `reverse (reverse l) = l` becomes `… = a :: reverse (reverse l)`), then replace a compound subterm that
 * occurs on both sides by a fresh variable (`reverse l` → `x`): `forall x a, reverse (snoc x a) = a :: reverse x`.
 * An accumulator's stuck step (`itrev l [a] = reverse l ++ [a]`) generalises its common `[a]` the same way.
 * Pure text in, text out: the session refutes, proves and uses each conjecture, all checked by Coq.
 */

/** A context entry as Arbor shows it: a variable with its type, or a hypothesis with its statement. */
export interface StuckEntry {
  name: string;
  kind: 'var' | 'hyp';
  text: string;
}

export interface StuckGoal {
  context: StuckEntry[];
  goal: string;
}

/** The compound subterms of a printed term: each parenthesised group and each list literal, innermost included. */
export function compoundSubterms(term: string): string[] {
  const out = new Set<string>();
  const stack: { ch: string; at: number }[] = [];
  for (let i = 0; i < term.length; i++) {
    const ch = term[i] as string;
    if (ch === '(' || ch === '[') stack.push({ ch, at: i });
    else if (ch === ')' || ch === ']') {
      const open = stack.pop();
      if (!open) return [...out];
      const inner = term.slice(open.at + 1, i).trim();
      if (ch === ')' && inner !== '' && !/^[\p{L}_][\p{L}\p{N}_'.]*$/u.test(inner) && !/[,:]|\bfun\b|\bforall\b|=>/.test(inner)) out.add(inner);
      // A list literal with a variable in it (`[a]`): `[]` is a constant the accumulator template covers.
      if (ch === ']' && inner !== '') out.add(term.slice(open.at, i + 1));
    }
  }
  return [...out];
}

/** Whether `sub` occurs in `term` as a whole subterm: parenthesised, or a list literal, or between term boundaries. */
const occurs = (term: string, sub: string): boolean => occurrence(sub).test(term);
const occurrence = (sub: string): RegExp => sub.startsWith('[')
  ? new RegExp(escapeRegExp(sub), 'gu')
  : new RegExp(`\\(\\s*${escapeRegExp(sub)}\\s*\\)`, 'gu');
/** `term` with every occurrence of `sub` replaced by `by` (a name, or a parenthesised term). */
const replaceAll = (term: string, sub: string, by: string): string => term.replace(occurrence(sub), () => by);
/** A variable occurrence, not part of a longer name or a qualified one. */
const nameRe = (name: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}_'.])${escapeRegExp(name)}(?![\\p{L}\\p{N}_'])`, 'gu');

/** The equations `L = R` among the hypotheses (induction hypotheses, mostly), with R a variable or a subterm. */
function hypothesisEquations(g: StuckGoal): [string, string][] {
  return g.context.filter((e) => e.kind === 'hyp').flatMap((e) => {
    const eq = splitEquation(e.text);
    return eq && !/\bforall\b|->/.test(e.text) ? [eq] : [];
  });
}

/**
 * The goal as it is, and cross-fertilised: for each hypothesis `L = R` whose R (a variable) stands at the top
 * level of a side, that side with R replaced by `(L)`.
 */
export function fertilised(g: StuckGoal): string[] {
  const eq = splitEquation(g.goal);
  if (!eq) return [];
  const out = [`${eq[0]} = ${eq[1]}`];
  for (const [l, r] of hypothesisEquations(g)) {
    if (!/^[\p{L}_][\p{L}\p{N}_']*$/u.test(r)) continue;
    for (const side of [1, 0] as const) {
      // R where it stands at the top of a side (`a :: l`), not nested in an argument the side already computes on.
      const words = topLevelWords(eq[side]);
      if (!words.includes(r)) continue;
      const replaced = words.map((w) => (w === r ? `(${l})` : w)).join(' ');
      out.push(side === 1 ? `${eq[0]} = ${replaced}` : `${replaced} = ${eq[1]}`);
    }
  }
  return [...new Set(out)];
}

/**
 * The conjectures for a stuck subgoal: each (fertilised) equation with a compound subterm common to both sides
 * replaced by a fresh variable; the variable's type is `typeOf(subterm)` (Coq's `Check`, asked by the caller),
 * the other binders the goal's variables the lemma still mentions. Returns each statement once.
 */
export function subtermConjectures(g: StuckGoal, typeOf: ReadonlyMap<string, string>, taken: ReadonlySet<string>, base: string, limit = 6): Conjecture[] {
  const vars = g.context.filter((e) => e.kind === 'var');
  // The goal's own words too: a global the goal mentions (a function named `x`) must not be captured by a binder.
  const names = new Set([...taken, ...g.context.map((e) => e.name), ...[g.goal, ...g.context.map((e) => e.text)].flatMap((t) => t.match(/[\p{L}_][\p{L}\p{N}_']*/gu) ?? [])]);
  const fresh = (b: string): string => {
    if (!names.has(b)) return b;
    for (let i = 0; ; i++) if (!names.has(`${b}${i}`)) return `${b}${i}`;
  };
  const x = fresh('x');
  const name = fresh(`${base}_gen`);
  const out: Conjecture[] = [];
  const seen = new Set<string>();
  for (const equation of fertilised(g)) {
    const eq = splitEquation(equation);
    if (!eq) continue;
    for (const sub of compoundSubterms(equation)) {
      const type = typeOf.get(sub);
      if (type === undefined || !occurs(eq[0], sub) || !occurs(eq[1], sub)) continue;
      // It must mention a variable: generalising a closed constant other than a list literal says little.
      if (!vars.some((v) => nameRe(v.name).test(sub))) continue;
      const body = `${replaceAll(eq[0], sub, x)} = ${replaceAll(eq[1], sub, x)}`;
      const rest = vars.filter((v) => nameRe(v.name).test(body)
        // The type variables the remaining binders' types mention come along (an implicit argument hides them).
        || (/^(Type|Set)$/.test(v.text.trim()) && vars.some((w) => w !== v && nameRe(v.name).test(w.text) && nameRe(w.name).test(body))));
      const statement = `forall (${x} : ${type})${rest.map((v) => ` (${v.name} : ${v.text})`).join('')}, ${body}`;
      if (seen.has(statement)) continue;
      seen.add(statement);
      const binders = [{ name: x, sort: sortOf(type) }, ...rest.map((v) => ({ name: v.name, sort: sortOf(v.text) }))];
      out.push({
        template: 'subterm',
        name,
        statement,
        binders,
        proofs: binders.filter((b) => b.sort === 'nat' || b.sort.startsWith('list-')).map((b) => `solve [intros until ${b.name}; induction ${b.name}; intros; simpl in *; try rewrite IH${b.name}; first [reflexivity | congruence | lia | hauto]]`),
        closers: [],
      });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

function sortOf(type: string): Conjecture['binders'][number]['sort'] {
  const t = type.trim().replace(/^\((.*)\)$/, '$1').trim();
  if (/^(Type|Set)$/.test(t)) return 'type';
  if (t === 'nat') return 'nat';
  if (t === 'bool') return 'bool';
  if (t === 'list nat') return 'list-nat';
  if (t === 'list bool') return 'list-bool';
  return 'other';
}
