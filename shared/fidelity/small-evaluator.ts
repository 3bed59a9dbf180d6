import type { Binder, Term } from './statement-term.ts';

/**
 * A bounded evaluator for the decidable fragment over nat, Z, bool, Prop and lists: quantifiers range over
 * small instance sets. Its answers are hints only — the refutation tier trusts nothing until Coq has
 * checked the proof built from them.
 */
export type Value =
  | { t: 'nat'; v: bigint }
  | { t: 'int'; v: bigint }
  | { t: 'bool'; v: boolean }
  | { t: 'prop'; v: boolean }
  | { t: 'list'; items: Value[] }
  /** An element of a finite carrier chosen for an abstract type (printed in Coq as `coq`). */
  | { t: 'elem'; v: number; coq: string }
  | { t: 'fn'; call: (args: Value[]) => Value };

export class EvalUnsupported extends Error {}

/** The instances a quantifier ranges over, with their Coq spelling. */
export interface Domain { name: string; values: { value: Value; coq: string }[] }

export interface EvalEnv {
  vars: Map<string, Value>;
  /** Abstract types mapped to their finite carrier. */
  types: Map<string, Domain>;
  /** Numerals default to integers (Coq `%Z` scope / `Open Scope Z_scope`). */
  zScope: boolean;
  /** Shared step budget: evaluation stops (unsupported) when it runs out. */
  budget: { steps: number };
  /** Number of enclosing quantified variables: inner quantifiers range wider (see `domainOf`). */
  depth?: number;
}

const nat = (v: bigint): Value => ({ t: 'nat', v: v < 0n ? 0n : v });
const int = (v: bigint): Value => ({ t: 'int', v });
const prop = (v: boolean): Value => ({ t: 'prop', v });
const bool = (v: boolean): Value => ({ t: 'bool', v });

export const coqOfValue = (x: Value): string => {
  switch (x.t) {
    case 'nat': return x.v.toString();
    case 'int': return x.v < 0n ? `(${x.v})%Z` : `${x.v}%Z`;
    case 'bool': return String(x.v);
    case 'prop': return x.v ? 'True' : 'False';
    case 'elem': return x.coq;
    case 'list': return `(${[...x.items.map(coqOfValue), 'nil'].join(' :: ')})`;
    case 'fn': throw new EvalUnsupported('function value has no spelling');
  }
};

export function truthOf(x: Value): boolean {
  if (x.t === 'prop' || x.t === 'bool') return x.v;
  throw new EvalUnsupported('not a proposition');
}

const num = (x: Value): bigint => {
  if (x.t === 'nat' || x.t === 'int') return x.v;
  throw new EvalUnsupported('not a number');
};

export function valuesEqual(a: Value, b: Value): boolean {
  if ((a.t === 'nat' || a.t === 'int') && (b.t === 'nat' || b.t === 'int')) return a.v === b.v;
  if ((a.t === 'bool' || a.t === 'prop') && (b.t === 'bool' || b.t === 'prop')) return a.v === b.v;
  if (a.t === 'list' && b.t === 'list') return a.items.length === b.items.length && a.items.every((x, i) => valuesEqual(x, b.items[i] as Value));
  if (a.t === 'elem' && b.t === 'elem') return a.v === b.v;
  throw new EvalUnsupported('equality on functions');
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  if (b === 0n) return 0n;
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
};

function arith(op: string, a: Value, b: Value): Value {
  const isInt = a.t === 'int' || b.t === 'int';
  const x = num(a);
  const y = num(b);
  const mk = isInt ? int : nat;
  switch (op) {
    case '+': return mk(x + y);
    case '-': return mk(x - y);
    case '*': return mk(x * y);
    case '/': return mk(isInt ? floorDiv(x, y) : (y === 0n ? 0n : x / y));
    case 'mod': case '%': return mk(y === 0n ? x : isInt ? x - y * floorDiv(x, y) : x % y);
    case '^': if (y < 0n || y > 64n) throw new EvalUnsupported('exponent'); return mk(x ** y);
  }
  throw new EvalUnsupported(op);
}

const fn = (arity: number, f: (args: Value[]) => Value): Value => ({
  t: 'fn',
  call: (args) => {
    if (args.length < arity) throw new EvalUnsupported('partial application');
    if (args.length > arity) {
      const r = f(args.slice(0, arity));
      if (r.t !== 'fn') throw new EvalUnsupported('too many arguments');
      return r.call(args.slice(arity));
    }
    return f(args);
  },
});
const listOf = (x: Value): Value[] => { if (x.t !== 'list') throw new EvalUnsupported('not a list'); return x.items; };
const a0 = (args: Value[]): Value => args[0] as Value;
const a1 = (args: Value[]): Value => args[1] as Value;

/** Standard-library constants the evaluator knows (Coq names). */
export const builtins: Record<string, Value> = {
  True: prop(true), False: prop(false), true: bool(true), false: bool(false), O: nat(0n), nil: { t: 'list', items: [] },
  S: fn(1, (a) => nat(num(a0(a)) + 1n)), 'Nat.succ': fn(1, (a) => nat(num(a0(a)) + 1n)),
  pred: fn(1, (a) => nat(num(a0(a)) - 1n)), 'Nat.pred': fn(1, (a) => nat(num(a0(a)) - 1n)),
  'Nat.add': fn(2, (a) => arith('+', a0(a), a1(a))), 'Nat.mul': fn(2, (a) => arith('*', a0(a), a1(a))),
  'Nat.sub': fn(2, (a) => arith('-', a0(a), a1(a))), 'Nat.pow': fn(2, (a) => arith('^', a0(a), a1(a))),
  'Nat.div': fn(2, (a) => arith('/', a0(a), a1(a))), 'Nat.modulo': fn(2, (a) => arith('mod', a0(a), a1(a))),
  max: fn(2, (a) => (num(a0(a)) >= num(a1(a)) ? a0(a) : a1(a))), min: fn(2, (a) => (num(a0(a)) <= num(a1(a)) ? a0(a) : a1(a))),
  'Nat.max': fn(2, (a) => nat(num(a0(a)) >= num(a1(a)) ? num(a0(a)) : num(a1(a)))), 'Nat.min': fn(2, (a) => nat(num(a0(a)) <= num(a1(a)) ? num(a0(a)) : num(a1(a)))),
  'Z.max': fn(2, (a) => int(num(a0(a)) >= num(a1(a)) ? num(a0(a)) : num(a1(a)))), 'Z.min': fn(2, (a) => int(num(a0(a)) <= num(a1(a)) ? num(a0(a)) : num(a1(a)))),
  'Nat.even': fn(1, (a) => bool(num(a0(a)) % 2n === 0n)), 'Nat.odd': fn(1, (a) => bool(num(a0(a)) % 2n !== 0n)),
  'Z.even': fn(1, (a) => bool(num(a0(a)) % 2n === 0n)), 'Z.odd': fn(1, (a) => bool(num(a0(a)) % 2n !== 0n)),
  'Nat.eqb': fn(2, (a) => bool(num(a0(a)) === num(a1(a)))), 'Nat.leb': fn(2, (a) => bool(num(a0(a)) <= num(a1(a)))), 'Nat.ltb': fn(2, (a) => bool(num(a0(a)) < num(a1(a)))),
  'Z.abs': fn(1, (a) => int(num(a0(a)) < 0n ? -num(a0(a)) : num(a0(a)))), 'Z.of_nat': fn(1, (a) => int(num(a0(a)))), 'Z.to_nat': fn(1, (a) => nat(num(a0(a)))),
  'Z.abs_nat': fn(1, (a) => nat(num(a0(a)) < 0n ? -num(a0(a)) : num(a0(a)))),
  negb: fn(1, (a) => bool(!truthOf(a0(a)))), andb: fn(2, (a) => bool(truthOf(a0(a)) && truthOf(a1(a)))), orb: fn(2, (a) => bool(truthOf(a0(a)) || truthOf(a1(a)))),
  length: fn(1, (a) => nat(BigInt(listOf(a0(a)).length))), 'List.length': fn(1, (a) => nat(BigInt(listOf(a0(a)).length))),
  rev: fn(1, (a) => ({ t: 'list', items: [...listOf(a0(a))].reverse() })), 'List.rev': fn(1, (a) => ({ t: 'list', items: [...listOf(a0(a))].reverse() })),
  app: fn(2, (a) => ({ t: 'list', items: [...listOf(a0(a)), ...listOf(a1(a))] })), 'List.app': fn(2, (a) => ({ t: 'list', items: [...listOf(a0(a)), ...listOf(a1(a))] })),
  not: fn(1, (a) => prop(!truthOf(a0(a)))),
};

/**
 * Instance sets per type; `null` when the type is outside the fragment. Inner quantifiers range over wider
 * sets than outer ones, so both `∀ a, ∃ b, a < b` (true) and `∃ b, ∀ a, a < b` (false) come out as in ℕ.
 */
export function domainOf(type: Term | null, env: EvalEnv): Domain | null {
  if (type === null) return domainOf({ kind: 'ident', name: env.zScope ? 'Z' : 'nat' }, env);
  const level = Math.min(env.depth ?? 0, 2);
  if (type.kind === 'ident') {
    const abstract = env.types.get(type.name);
    if (abstract) return abstract;
    switch (type.name) {
      case 'nat': return { name: 'nat', values: range(0, [5, 11, 23][level] as number).map((v) => ({ value: nat(v), coq: String(v) })) };
      case 'Z': return { name: 'Z', values: zRange([3, 7, 15][level] as number).map((v) => ({ value: int(v), coq: coqOfValue(int(v)) })) };
      case 'bool': return { name: 'bool', values: [true, false].map((v) => ({ value: bool(v), coq: String(v) })) };
      case 'Prop': return { name: 'Prop', values: [true, false].map((v) => ({ value: prop(v), coq: v ? 'True' : 'False' })) };
    }
    return null;
  }
  if (type.kind === 'app' && type.fn.kind === 'ident' && type.fn.name === 'list' && type.args.length === 1) {
    const elem = domainOf(type.args[0] as Term, { ...env, depth: 0 });
    if (!elem) return null;
    const small = elem.values.slice(0, 3);
    const lists: Value[][] = [[]];
    for (const x of small) lists.push([x.value]);
    for (const x of small) for (const y of small) lists.push([x.value, y.value]);
    return { name: `list ${elem.name}`, values: lists.map((items) => { const v: Value = { t: 'list', items }; return { value: v, coq: coqOfValue(v) }; }) };
  }
  return null;
}

const range = (lo: number, hi: number): bigint[] => Array.from({ length: hi - lo + 1 }, (_, i) => BigInt(lo + i));
/** 0, 1, -1, 2, -2, …: small magnitudes first, so witnesses are the simplest ones. */
const zRange = (m: number): bigint[] => [0n, ...range(1, m).flatMap((v) => [v, -v])];

const tick = (env: EvalEnv): void => {
  if (--env.budget.steps < 0) throw new EvalUnsupported('evaluation budget exhausted');
};

export function evaluate(t: Term, env: EvalEnv): Value {
  tick(env);
  switch (t.kind) {
    case 'ident': {
      const v = env.vars.get(t.name) ?? builtins[t.name];
      if (!v) throw new EvalUnsupported(`unknown constant ${t.name}`);
      return v;
    }
    case 'num': return env.zScope ? int(BigInt(t.value)) : nat(BigInt(t.value));
    case 'scope': {
      if (t.scope !== 'Z' && t.scope !== 'nat') throw new EvalUnsupported(`scope ${t.scope}`);
      return evaluate(t.body, { ...env, zScope: t.scope === 'Z' });
    }
    case 'ascribe': throw new EvalUnsupported('ascription');
    case 'app': {
      const f = evaluate(t.fn, env);
      if (f.t !== 'fn') throw new EvalUnsupported('applying a non-function');
      return f.call(t.args.map((a) => evaluate(a, env)));
    }
    case 'neg': return int(-num(evaluate(t.body, env)));
    case 'not': return prop(!truthOf(evaluate(t.body, env)));
    case 'list': return { t: 'list', items: t.items.map((i) => evaluate(i, env)) };
    case 'assoc': {
      const vs = t.items.map((i) => truthOf(evaluate(i, env)));
      return prop(t.op === '∧' ? vs.every(Boolean) : vs.some(Boolean));
    }
    case 'fun': {
      const binders = t.binders;
      return fn(binders.length, (args) => {
        const vars = new Map(env.vars);
        binders.forEach((b, i) => vars.set(b.name, args[i] as Value));
        return evaluate(t.body, { ...env, vars });
      });
    }
    case 'quant': return prop(evalQuant(t.q, t.binders, t.body, env));
    case 'infix': {
      const op = t.op;
      if (op === '∧') return prop(truthOf(evaluate(t.left, env)) && truthOf(evaluate(t.right, env)));
      if (op === '∨') return prop(truthOf(evaluate(t.left, env)) || truthOf(evaluate(t.right, env)));
      if (op === '→') return prop(!truthOf(evaluate(t.left, env)) || truthOf(evaluate(t.right, env)));
      if (op === '↔') return prop(truthOf(evaluate(t.left, env)) === truthOf(evaluate(t.right, env)));
      const l = evaluate(t.left, env);
      const r = evaluate(t.right, env);
      switch (op) {
        case '=': return prop(valuesEqual(l, r));
        case '≠': return prop(!valuesEqual(l, r));
        case '<': return prop(num(l) < num(r));
        case '≤': return prop(num(l) <= num(r));
        case '>': return prop(num(l) > num(r));
        case '≥': return prop(num(l) >= num(r));
        case '::': return { t: 'list', items: [l, ...listOf(r)] };
        case '++': return { t: 'list', items: [...listOf(l), ...listOf(r)] };
        case '∣': throw new EvalUnsupported('divides');
        default: return arith(op, l, r);
      }
    }
  }
}

function evalQuant(q: 'forall' | 'exists', binders: Binder[], body: Term, env: EvalEnv): boolean {
  const [first, ...rest] = binders;
  if (!first) return truthOf(evaluate(body, env));
  const dom = domainOf(first.type, env);
  if (!dom) throw new EvalUnsupported('quantifier over an unsupported type');
  for (const { value } of dom.values) {
    const vars = new Map(env.vars);
    vars.set(first.name, value);
    const r = evalQuant(q, rest, body, { ...env, vars, depth: (env.depth ?? 0) + 1 });
    if (q === 'forall' && !r) return false;
    if (q === 'exists' && r) return true;
  }
  return q === 'forall';
}
