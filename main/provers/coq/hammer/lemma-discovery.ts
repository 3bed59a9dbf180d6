import { escapeRegExp, nameOccurrence } from '../../../../shared/protocol/name-pattern.ts';
/**
 * HAMMER's lemma discovery (issue 13): when neither the portfolio nor induction closes a goal about the
 * document's own recursive functions, conjecture the auxiliary lemma a Coq user would write — the function
 * distributed over `++`, the accumulator generalised, a compound argument generalised — with tactics that
 * may prove it and tactics that may close the goal once it is available. Pure text in, text out: the
 * session refutes each conjecture on small instances, proves what survives and retries the goal, all
 * checked by Coq's kernel.
 */

/** A `Fixpoint`'s header: its type parameters (`{A : Type}`), its other parameters, its result type. */
export interface FixpointSignature {
  name: string;
  typeParams: { name: string; implicit: boolean }[];
  params: { name: string; type: string }[];
  returns: string;
}

/** The goal as Coq prints it after `intros`: its variables (name, type) and its conclusion. */
export interface GoalView {
  vars: { name: string; type: string }[];
  goal: string;
}

/** What small values a binder takes in the refutation search. */
type Sort = 'type' | 'nat' | 'bool' | 'list-nat' | 'list-bool' | 'other';

export interface Conjecture {
  template: 'append' | 'accumulator' | 'generalise' | 'subterm';
  /** The hypothesis name it gets in the proof (`sum_list_app`). */
  name: string;
  /** A closed statement (`forall (l1 l2 : list nat), sum_list (l1 ++ l2) = sum_list l1 + sum_list l2`). */
  statement: string;
  /** Its binders in order, with the sort of values the refutation search tries for each. */
  binders: { name: string; sort: Sort }[];
  /** Tactics that may prove the statement (each closes it or fails). */
  proofs: string[];
  /** Tactics that may close the original goal once the lemma is a hypothesis `name` (each closes it or fails). */
  closers: string[];
}

const IDENT = /^[\p{L}_][\p{L}\p{N}_']*$/u;
const FINISH = 'first [reflexivity | lia | congruence | (rewrite ?andb_assoc, ?orb_assoc; reflexivity) | hauto]';

/** Top-level pieces of `text` split on spaces, keeping bracketed groups whole: `f (a b) [] x` → `f`, `(a b)`, `[]`, `x`. */
export function topLevelWords(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text.trim()) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** Splits `lhs = rhs` at its top-level `=` (undefined when the goal is not one equation). */
export function splitEquation(goal: string): [string, string] | undefined {
  const words = topLevelWords(goal);
  const at = words.indexOf('=');
  if (at <= 0 || at === words.length - 1 || words.lastIndexOf('=') !== at) return undefined;
  return [words.slice(0, at).join(' '), words.slice(at + 1).join(' ')];
}

/** The signatures a `Fixpoint` sentence declares (`… with …` included); [] for anything else. */
export function fixpointSignatures(sentence: string): FixpointSignature[] {
  const text = sentence.replace(/\s+/g, ' ').trim();
  if (!/^Fixpoint\s/.test(text)) return [];
  const out: FixpointSignature[] = [];
  for (const part of text.replace(/^Fixpoint\s+/, '').split(/\swith\s/)) {
    const m = /^([\p{L}_][\p{L}\p{N}_']*)\s*((?:[({][^(){}]*[)}]\s*)*)(?:\{\s*struct\s+\S+\s*\}\s*)?:\s*(.*?)\s*:=/u.exec(part);
    if (!m) continue;
    const sig: FixpointSignature = { name: m[1] as string, typeParams: [], params: [], returns: (m[3] as string).trim() };
    for (const b of (m[2] as string).matchAll(/([({])\s*([^(){}:]+?)\s*:\s*([^(){}]+?)\s*[)}]/g)) {
      const names = (b[2] as string).split(/\s+/).filter((n) => IDENT.test(n));
      const type = (b[3] as string).trim();
      for (const n of names) {
        if (/^(Type|Set)$/.test(type)) sig.typeParams.push({ name: n, implicit: b[1] === '{' });
        else if (b[1] === '(') sig.params.push({ name: n, type });
      }
    }
    if (sig.params.length > 0) out.push(sig);
  }
  return out;
}

const mentions = (text: string, name: string): boolean => nameOccurrence(name).test(text);

const sortOf = (type: string, typeParams: readonly string[]): Sort => {
  const t = type.trim().replace(/^\((.*)\)$/, '$1').trim();
  if (/^(Type|Set)$/.test(t)) return 'type';
  if (t === 'nat') return 'nat';
  if (t === 'bool') return 'bool';
  const list = /^list\s+(\S+)$/.exec(t);
  if (list) return list[1] === 'bool' ? 'list-bool' : list[1] === 'nat' || typeParams.includes(list[1] as string) ? 'list-nat' : 'other';
  return 'other';
};

/** A name not in `taken` (`base`, `base0`, `base1`, …). */
const fresh = (base: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(base)) return base;
  for (let i = 0; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
};

/** `n + n + 6` → its coefficients and constant, when it is a sum of variables, literals and `k * v`. */
export function linearForm(expr: string, vars: ReadonlySet<string>): { coeffs: Map<string, number>; constant: number } | undefined {
  const terms = expr.split('+').map((t) => t.trim());
  const coeffs = new Map<string, number>();
  let constant = 0;
  for (const t of terms) {
    let m: RegExpExecArray | null;
    if (/^\d+$/.test(t)) constant += Number(t);
    else if (vars.has(t)) coeffs.set(t, (coeffs.get(t) ?? 0) + 1);
    else if ((m = /^(\d+)\s*\*\s*(\S+)$/.exec(t)) && vars.has(m[2] as string)) coeffs.set(m[2] as string, (coeffs.get(m[2] as string) ?? 0) + Number(m[1]));
    else if ((m = /^(\S+)\s*\*\s*(\d+)$/.exec(t)) && vars.has(m[1] as string)) coeffs.set(m[1] as string, (coeffs.get(m[1] as string) ?? 0) + Number(m[2]));
    else return undefined;
  }
  return coeffs.size === 0 ? undefined : { coeffs, constant };
}

/** `vars` with the type variables their types mention (`A` for `l : list A`; implicit arguments hide it in the goal), in goal order. */
const withTypeVars = (goal: GoalView, vars: GoalView['vars']): GoalView['vars'] =>
  goal.vars.filter((v) => vars.includes(v) || (/^(Type|Set)$/.test(v.type.trim()) && vars.some((x) => mentions(x.type, v.name))));

/** Closers any lemma may enable: rewrite with it (then simplify), apply it, or induct with it available. */
export const genericClosers = (name: string, goal: GoalView): string[] => {
  const tidy = `simpl in *; rewrite ?${name} in *; simpl in *; rewrite ?Coq.Lists.List.app_nil_r, ?Coq.Arith.PeanoNat.Nat.add_0_r in *`;
  const inductive = goal.vars.filter((v) => /^(nat|list\b)/.test(v.type.trim())).map((v) => v.name);
  return [
    `solve [intros; ${tidy}; (lia || congruence || reflexivity || auto)]`,
    `solve [intros; first [apply ${name} | eapply ${name}]]`,
    ...inductive.map((v) => `solve [intros; induction ${v}; ${tidy}; (lia || congruence || reflexivity || auto)]`),
  ];
};

/** `f` applied to `args` in the order of its explicit parameters (implicit type parameters left out). */
const call = (f: FixpointSignature, args: ReadonlyMap<string, string>): string =>
  [f.name, ...f.typeParams.filter((t) => !t.implicit).map((t) => t.name), ...f.params.map((p) => {
    const a = args.get(p.name) ?? p.name;
    return /^[\p{L}\p{N}_']+$/u.test(a) ? a : `(${a})`;
  })].join(' ');

/** Distribution over `++`: `forall … l1 l2, f … (l1 ++ l2) … = f … l1 … OP f … l2 …`, for each list parameter of `f`. */
function appendConjectures(f: FixpointSignature, goal: GoalView, taken: ReadonlySet<string>): Conjecture[] {
  const tps = f.typeParams.map((t) => t.name);
  const ret = sortOf(f.returns, tps);
  const ops: ((a: string, b: string) => string)[] = ret === 'nat' ? [(a, b) => `${a} + ${b}`, (a, b) => `${a} * ${b}`]
    : ret === 'bool' ? [(a, b) => `${a} && ${b}`, (a, b) => `${a} || ${b}`]
      : /^list\b/.test(f.returns.trim()) ? [(a, b) => `${a} ++ ${b}`, (a, b) => `${b} ++ ${a}`] : [];
  const out: Conjecture[] = [];
  for (const p of f.params) {
    if (!/^list\b/.test(p.type.trim())) continue;
    const others = f.params.filter((q) => q !== p);
    const used = new Set([...tps, ...others.map((q) => q.name)]);
    const l1 = fresh('l1', used);
    const l2 = fresh('l2', new Set([...used, l1]));
    const binders = [
      ...tps.map((t) => ({ name: t, sort: 'type' as Sort, text: `(${t} : Type)` })),
      ...others.map((q) => ({ name: q.name, sort: sortOf(q.type, tps), text: `(${q.name} : ${q.type})` })),
      { name: l1, sort: sortOf(p.type, tps), text: `(${l1} : ${p.type})` },
      { name: l2, sort: sortOf(p.type, tps), text: `(${l2} : ${p.type})` },
    ];
    const at = (arg: string): string => call(f, new Map([[p.name, arg]]));
    const name = fresh(`${f.name}_app`, taken);
    for (const op of ops) {
      out.push({
        template: 'append',
        name,
        statement: `forall ${binders.map((b) => b.text).join(' ')}, ${at(`${l1} ++ ${l2}`)} = ${op(at(l1), at(l2))}`,
        binders: binders.map(({ name: n, sort }) => ({ name: n, sort })),
        proofs: [`solve [intros; induction ${l1}; simpl in *; try rewrite IH${l1}; rewrite ?Coq.Lists.List.app_nil_r, <- ?Coq.Lists.List.app_assoc; ${FINISH}]`],
        closers: genericClosers(name, goal),
      });
    }
  }
  return out;
}

/** Accumulator generalisation: `f l [] = g l` → `forall l acc, f l acc = g l ++ acc` (and `acc ++ g l`; `+ acc` for `0`). */
function accumulatorConjectures(fns: readonly FixpointSignature[], goal: GoalView, taken: ReadonlySet<string>): Conjecture[] {
  const eq = splitEquation(goal.goal);
  if (!eq) return [];
  const out: Conjecture[] = [];
  const typeVars = goal.vars.filter((v) => /^(Type|Set)$/.test(v.type.trim())).map((v) => v.name);
  for (const [side, other] of [eq, [eq[1], eq[0]] as const]) {
    const [head, ...args] = topLevelWords(side);
    const f = fns.find((g) => g.name === head);
    if (!f) continue;
    args.forEach((arg, j) => {
      const zero = /^(\[\]|nil|0|O)$/.test(arg) ? (arg === '0' || arg === 'O' ? 'nat' : 'list') : undefined;
      if (!zero) return;
      const acc = fresh('acc', new Set([...taken, ...goal.vars.map((v) => v.name)]));
      const lhs = [head, ...args.map((a, k) => (k === j ? acc : a))].join(' ');
      const rhss = zero === 'list' ? [`${other} ++ ${acc}`, `${acc} ++ ${other}`] : [`${other} + ${acc}`];
      const text = `${lhs} ${other}`;
      const vars = withTypeVars(goal, goal.vars.filter((v) => mentions(text, v.name)));
      const binders = [
        ...vars.map((v) => ({ name: v.name, sort: sortOf(v.type, typeVars), text: `(${v.name} : ${v.type})` })),
        { name: acc, sort: (zero === 'nat' ? 'nat' : 'list-nat') as Sort, text: acc },
      ];
      // Induct on each argument that is a variable of an inductive type, the accumulator generalised.
      const inductOn = args.filter((a, k) => k !== j && vars.some((v) => v.name === a && /^(nat|list\b)/.test(v.type.trim())));
      const name = fresh(`${f.name}_acc`, taken);
      for (const rhs of rhss) {
        out.push({
          template: 'accumulator',
          name,
          statement: `forall ${binders.map((b) => b.text).join(' ')}, ${lhs} = ${rhs}`,
          binders: binders.map(({ name: n, sort }) => ({ name: n, sort })),
          proofs: inductOn.map((v) => `solve [intros; revert ${acc}; induction ${v}; intros; simpl in *; try rewrite IH${v}; rewrite ?Coq.Lists.List.app_nil_r, <- ?Coq.Lists.List.app_assoc; simpl; ${FINISH}]`),
          closers: genericClosers(name, goal),
        });
      }
    });
  }
  return out;
}

/**
 * A compound argument generalised: `evenb (n + n + 6) = true` → `forall m, evenb m = true` (refuted: m = 1)
 * and, the argument being even in every variable, `forall m, evenb (m + m) = true`, used after
 * `replace (n + n + 6) with ((n + 3) + (n + 3)) by lia`.
 */
function generaliseConjectures(fns: readonly FixpointSignature[], goal: GoalView, taken: ReadonlySet<string>): Conjecture[] {
  const out: Conjecture[] = [];
  const names = new Set(goal.vars.map((v) => v.name));
  const typeVars = goal.vars.filter((v) => /^(Type|Set)$/.test(v.type.trim())).map((v) => v.name);
  for (const f of fns) {
    for (const m of goal.goal.matchAll(new RegExp(`(?<![\\p{L}\\p{N}_'.])${escapeRegExp(f.name)} \\(([^()]*)\\)`, 'gu'))) {
      const expr = m[1] as string;
      const lin = linearForm(expr, names);
      if (!lin) continue;
      const v = fresh('m', new Set([...names, ...taken]));
      const name = fresh(`${f.name}_gen`, taken);
      const build = (arg: string): { statement: string; binders: Conjecture['binders'] } => {
        const body = goal.goal.split(m[0]).join(`${f.name} ${arg}`);
        const rest = withTypeVars(goal, goal.vars.filter((x) => mentions(body, x.name)));
        return {
          statement: `forall (${v} : nat)${rest.map((x) => ` (${x.name} : ${x.type})`).join('')}, ${body}`,
          binders: [{ name: v, sort: 'nat' }, ...rest.map((x) => ({ name: x.name, sort: sortOf(x.type, typeVars) }))],
        };
      };
      out.push({
        template: 'generalise', name, ...build(v),
        proofs: [`solve [intro ${v}; induction ${v}; intros; simpl in *; ${FINISH}]`],
        closers: genericClosers(name, goal),
      });
      const even = [...lin.coeffs.values()].every((c) => c % 2 === 0) && lin.constant % 2 === 0;
      if (!even) continue;
      const half = [...[...lin.coeffs].map(([x, c]) => (c === 2 ? x : `${c / 2} * ${x}`)), ...(lin.constant > 0 ? [String(lin.constant / 2)] : [])].join(' + ');
      out.push({
        template: 'generalise', name, ...build(`(${v} + ${v})`),
        proofs: [
          `solve [intro ${v}; induction ${v}; intros; [simpl; ${FINISH} | replace (S ${v} + S ${v}) with (S (S (${v} + ${v}))) by lia; simpl; (assumption || auto || ${FINISH})]]`,
          `solve [intro ${v}; induction ${v}; intros; simpl in *; rewrite ?Coq.Arith.PeanoNat.Nat.add_succ_r; simpl in *; ${FINISH}]`,
        ],
        closers: [`solve [intros; replace (${expr}) with ((${half}) + (${half})) by lia; first [apply ${name} | rewrite ${name}; (reflexivity || lia || auto)]]`, ...genericClosers(name, goal)],
      });
    }
  }
  return out;
}

/** The conjectures for a goal, from the document's functions it mentions; at most `limit`, templates in turn. */
export function conjectures(goal: GoalView, fns: readonly FixpointSignature[], taken: ReadonlySet<string>, limit = 12): Conjecture[] {
  const mentioned = fns.filter((f) => mentions(goal.goal, f.name));
  if (mentioned.length === 0) return [];
  const all = [
    ...accumulatorConjectures(mentioned, goal, taken),
    ...generaliseConjectures(mentioned, goal, taken),
    ...mentioned.flatMap((f) => appendConjectures(f, goal, taken)),
  ];
  const seen = new Set<string>();
  return all.filter((c) => !seen.has(c.statement) && seen.add(c.statement)).slice(0, limit);
}

const VALUES: Record<Exclude<Sort, 'other'>, string[]> = {
  type: ['nat'],
  nat: ['0', '1', '2', '3'],
  bool: ['true', 'false'],
  'list-nat': ['[]', '[1]', '[1; 2]', '[2; 0; 1]'],
  'list-bool': ['[]', '[true]', '[false; true]'],
};

/** Up to `max` instances of the binders with small values (first values first, then the others in turn). */
export function instances(binders: Conjecture['binders'], max = 12): string[][] | undefined {
  const pools = binders.map((b) => (b.sort === 'other' ? undefined : VALUES[b.sort]));
  if (pools.some((p) => p === undefined)) return undefined;
  const out: string[][] = [];
  const sizes = pools.map((p) => (p as string[]).length);
  const total = sizes.reduce((a, b) => a * b, 1);
  // Mixed-radix counting, stepping so the sample spreads over the whole product.
  const stride = Math.max(1, Math.floor(total / max));
  for (let k = 0; k < total && out.length < max; k += stride) {
    let rest = k;
    out.push(pools.map((p, i) => {
      const size = sizes[i] as number;
      const v = (p as string[])[rest % size] as string;
      rest = Math.floor(rest / size);
      return v;
    }));
  }
  return out;
}

/**
 * A tactic proving `~ (statement)` from a small instance where it computes to a false equation, or
 * undefined when the binders have no small values. Coq checks it: a refuted conjecture is false.
 */
export function refutationTactic(c: Conjecture): string | undefined {
  const found = instances(c.binders);
  if (!found || found.length === 0) return undefined;
  return `intro H; first [${found.map((vals) => `(specialize (H ${vals.join(' ')}); vm_compute in H; discriminate H)`).join(' | ')}]`;
}
