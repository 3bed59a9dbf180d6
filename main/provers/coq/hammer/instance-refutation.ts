import { nameOccurrence } from '../../../../shared/protocol/name-pattern.ts';
/**
 * HAMMER's counterexample search in the document's own environment (issue 25). The session asks its own
 * coqidetop, at its tip, to prove the negation of the goal's universal closure by instantiating it at small
 * values — so `max` means the document's `max`, and a list, pair, option, boolean or a value of one of the
 * document's inductive types is as good a witness as a number. Coq checks the refutation: a false claim
 * needs a proof of `~ S`, and `S` is the goal with its context quantified, nothing else.
 */

/** A context entry after `intros`, in order: a variable (bound by `forall`) or a hypothesis (a premise). */
export interface ClosureEntry {
  kind: 'var' | 'hyp';
  name: string;
  text: string;
}

/** A constructor of one of the document's inductive types: its name and argument types. */
export interface ConstructorShape {
  name: string;
  args: string[];
}

/** How many instances one search tries (one Coq call: cheap even when long). */
const MAX_INSTANCES = 48;
/** The hypothesis the negation's proof names (unlikely to be a user's name). */
export const REFUTE_HYP = 'arbor_refuted';
/** Printed by each instance's branch before its contradiction is sought. */
export const INSTANCE_MARK = 'arbor-instance ';

/** The instance that refuted the goal: the last marker in the messages of the successful call. */
export const refutingInstance = (plan: RefutationPlan, messages: readonly string[]): string | undefined => {
  const marks = messages.flatMap((m) => [...m.matchAll(new RegExp(`${INSTANCE_MARK}(\\d+)`, 'g'))].map((x) => Number(x[1])));
  const last = marks.at(-1);
  return last === undefined ? undefined : plan.instances[last];
};

/** The goal's universal closure: `forall (x : T), (H) -> goal`, in the context's order. */
export const closure = (context: readonly ClosureEntry[], goal: string): string => {
  let text = `(${goal})`;
  for (const e of [...context].reverse()) text = e.kind === 'var' ? `forall (${e.name} : ${e.text}), ${text}` : `(${e.text}) -> ${text}`;
  return text;
};

/** Splits `a -> b -> c` at its top-level arrows. */
export const arrowParts = (type: string): string[] => {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i] as string;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && type.startsWith('->', i)) {
      parts.push(type.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(type.slice(start).trim());
  return parts;
};

const strip = (t: string): string => {
  let s = t.trim();
  while (s.startsWith('(') && s.endsWith(')') && balanced(s.slice(1, -1))) s = s.slice(1, -1).trim();
  return s;
};
const balanced = (s: string): boolean => {
  let d = 0;
  for (const ch of s) {
    if (ch === '(') d++;
    else if (ch === ')' && --d < 0) return false;
  }
  return d === 0;
};

/** Splits a type application `prod A B` / `A * B` into its head and arguments (top level only). */
const application = (t: string): string[] => {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of t) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ' ' && depth === 0) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
};

const topProduct = (t: string): [string, string] | undefined => {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i] as string;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === '*' && depth === 0) return [t.slice(0, i).trim(), t.slice(i + 1).trim()];
  }
  return undefined;
};

/**
 * Small values of a type, smallest first; undefined when the type has none we can write (functions,
 * propositions, abstract types). `inductives` gives the document's own types' constructors.
 */
export function smallValues(type: string, inductives: ReadonlyMap<string, readonly ConstructorShape[]>, depth = 2): string[] | undefined {
  const t = strip(type);
  if (arrowParts(t).length > 1 || /^forall\b/.test(t)) return undefined;
  const product = topProduct(t);
  if (product) {
    const a = smallValues(product[0], inductives, depth);
    const b = smallValues(product[1], inductives, depth);
    if (!a || !b) return undefined;
    return a.slice(0, 3).flatMap((x) => b.slice(0, 3).map((y) => `(${x}, ${y})`));
  }
  const [head, ...args] = application(t);
  switch (head) {
    case 'nat': return ['0', '1', '2', '3'];
    case 'bool': return ['true', 'false'];
    case 'unit': return ['tt'];
    case 'Z': return ['0%Z', '1%Z', '(-1)%Z', '2%Z'];
    case 'N': return ['0%N', '1%N', '2%N'];
    case 'positive': return ['1%positive', '2%positive', '3%positive'];
    case 'Type': case 'Set': return ['nat'];
    case 'list': {
      const el = args.length === 1 ? smallValues(args[0] as string, inductives, depth) : undefined;
      if (!el) return undefined;
      const ty = `(${args[0] as string})`;
      const [a, b = a] = el.slice(1).length > 0 ? el.slice(1) : el;
      return [`(@nil ${ty})`, `(@cons ${ty} ${a as string} (@nil ${ty}))`, `(@cons ${ty} ${el[0] as string} (@nil ${ty}))`, `(@cons ${ty} ${a as string} (@cons ${ty} ${b as string} (@nil ${ty})))`];
    }
    case 'option': {
      const el = args.length === 1 ? smallValues(args[0] as string, inductives, depth) : undefined;
      if (!el) return undefined;
      return [`(@None (${args[0] as string}))`, ...el.slice(0, 3).map((v) => `(Some ${v})`)];
    }
    case 'prod': {
      if (args.length !== 2) return undefined;
      return smallValues(`${args[0] as string} * ${args[1] as string}`, inductives, depth);
    }
  }
  const ctors = args.length === 0 && head !== undefined ? inductives.get(head) : undefined;
  if (!ctors || depth <= 0) return undefined;
  const out: string[] = [];
  // Constants first, then each constructor over small arguments (fewer as they nest).
  for (const c of [...ctors].sort((x, y) => x.args.length - y.args.length)) {
    if (c.args.length === 0) {
      out.push(c.name);
      continue;
    }
    const pools = c.args.map((a) => smallValues(a, inductives, depth - 1)?.slice(0, 2));
    if (pools.some((p) => p === undefined || p.length === 0)) continue;
    for (const vals of combinations(pools as string[][], 4)) out.push(`(${c.name} ${vals.join(' ')})`);
  }
  return out.length === 0 ? undefined : out;
}

/** Up to `max` combinations of one value from each pool, spread over the whole product (mixed radix). */
export function combinations(pools: readonly (readonly string[])[], max: number): string[][] {
  const sizes = pools.map((p) => p.length);
  const total = sizes.reduce((a, b) => a * b, 1);
  if (total === 0) return [];
  const out: string[][] = [];
  // Every combination when they fit; else a stride through them, first the smallest values.
  const stride = total <= max ? 1 : Math.max(1, Math.floor(total / max));
  for (let k = 0; k < total && out.length < max; k += stride) {
    let rest = k;
    out.push(pools.map((p, i) => {
      const size = sizes[i] as number;
      const v = p[rest % size] as string;
      rest = Math.floor(rest / size);
      return v;
    }));
  }
  return out;
}

export interface RefutationPlan {
  /** The goal's closure, as asserted false. */
  statement: string;
  /** One tactic proving `~ statement` from the first instance that makes it false. */
  tactic: string;
  /** Each instance as the user reads it (`n = 1, l = [2]`), by its position in the tactic. */
  instances: string[];
}

const readable = (v: string): string =>
  v.replace(/\(@nil \([^()]*(?:\([^()]*\))*[^()]*\)\)/g, '[]')
    .replace(/\(@cons \([^()]*(?:\([^()]*\))*[^()]*\) ([^()\s]+|\([^()]*\)) (\[[^\]]*\])\)/g, (_, x: string, rest: string) => (rest === '[]' ? `[${x}]` : `[${x}; ${rest.slice(1)}`))
    .replace(/\(@None \([^()]*\)\)/g, 'None');

/**
 * The search as one tactic: for each instance, specialise the closure's hypothesis at its values (each
 * premise proved by computation), compute, and find the contradiction. Undefined when a variable's type has
 * no small values (a function, an abstract type) or there is nothing to instantiate.
 */
export function refutationPlan(context: readonly ClosureEntry[], goal: string, inductives: ReadonlyMap<string, readonly ConstructorShape[]>): RefutationPlan | undefined {
  // No variables (`1 = 2`, `False`): the one instance is the statement itself, computed.
  const vars = context.filter((e) => e.kind === 'var');
  // A type variable is instantiated at nat: later types that mention it are read with nat.
  const typeVars = new Set(vars.filter((v) => /^(Type|Set)\b/.test(strip(v.text))).map((v) => v.name));
  const subst = (t: string): string => [...typeVars].reduce((s, a) => s.replace(nameOccurrence(a, 'gu'), '$1nat'), t);
  const pools = vars.map((v) => smallValues(subst(v.text), inductives));
  if (pools.some((p) => p === undefined || p.length === 0)) return undefined;
  const assignments = combinations(pools as string[][], MAX_INSTANCES);
  const premise = `ltac:(vm_compute; solve [reflexivity | lia | tauto | discriminate | repeat constructor | auto])`;
  const contradiction = `solve [discriminate ${REFUTE_HYP} | lia | tauto | intuition discriminate | inversion ${REFUTE_HYP} | exact ${REFUTE_HYP}]`;
  let index = 0;
  const branches = assignments.map((vals) => {
    let i = 0;
    const args = context.map((e) => (e.kind === 'var' ? (vals[i++] as string) : premise));
    const steps = args.map((a) => `specialize (${REFUTE_HYP} ${a})`).join('; ');
    // The marker names the branch: `first` tries them in order, so the last marker printed is the one that held.
    return `(${steps}; vm_compute in ${REFUTE_HYP}; idtac "${INSTANCE_MARK}${index++}"; ${contradiction})`;
  });
  const instances = assignments.map((vals) => vars.map((v, i) => `${v.name} = ${readable(vals[i] as string)}`).join(', ') || 'the statement itself (it has no variables)');
  return { statement: closure(context, goal), tactic: `intro ${REFUTE_HYP}; first [${branches.join(' | ')}]`, instances };
}
