import type { ContextParameter } from './fidelity-context.ts';
import { parseStatement } from './statement-parser.ts';
import { printCanonical } from './statement-printer.ts';
import { evaluate } from './small-evaluator.ts';
import type { Domain, EvalEnv, Value } from './small-evaluator.ts';

/** One concrete choice for an abstract parameter: its Coq definition body and its evaluator value. */
export interface Interpretation { name: string; type: string; coq: string; value: Value | null; carrier?: Domain }

/**
 * Small families of concrete models for the context's abstract parameters. A refutation found under one
 * of them shows the equivalence is not provable from the context (the model satisfies it, checked in Coq).
 */
const families: Record<string, string[]> = {
  'nat': ['0', '1', '2', '3'],
  'Z': ['0%Z', '1%Z', '(-1)%Z'],
  'bool': ['true', 'false'],
  'Prop': ['True', 'False'],
  'list nat': ['nil', '(0 :: nil)', '(1 :: 0 :: nil)'],
  'nat → Prop': ['fun n : nat => n = 0', 'fun n : nat => 0 < n', 'fun n : nat => n <= 1', 'fun n : nat => n = 1', 'fun n : nat => Nat.even n = true', 'fun _ : nat => True', 'fun _ : nat => False'],
  'nat → nat → Prop': ['fun a b : nat => a = b', 'fun a b : nat => a <= b', 'fun a b : nat => a < b', 'fun a b : nat => a = 0', 'fun a b : nat => b = 0', 'fun _ _ : nat => True', 'fun _ _ : nat => False'],
  'nat → nat': ['fun n : nat => n', 'fun _ : nat => 0', 'fun n : nat => S n', 'fun n : nat => n + n', 'fun n : nat => n - 1'],
  'nat → bool': ['fun n : nat => Nat.even n', 'fun _ : nat => true', 'fun _ : nat => false'],
  'nat → nat → nat': ['fun a b : nat => a + b', 'fun a _ : nat => a', 'fun _ b : nat => b', 'fun a b : nat => a * b', 'fun a b : nat => a - b'],
  'Z → Prop': ['fun z : Z => (z = 0)%Z', 'fun z : Z => (0 < z)%Z', 'fun z : Z => (0 <= z)%Z', 'fun _ : Z => True', 'fun _ : Z => False'],
  'Z → Z': ['fun z : Z => z', 'fun _ : Z => 0%Z', 'fun z : Z => (- z)%Z', 'fun z : Z => (z + 1)%Z'],
  'Z → Z → Prop': ['fun a b : Z => a = b', 'fun a b : Z => (a <= b)%Z', 'fun a b : Z => (a < b)%Z', 'fun _ _ : Z => True', 'fun _ _ : Z => False'],
};

/** The carrier chosen for an abstract type: Coq's `bool` (two elements, decidable, enough for most refutations). */
const boolCarrier = (typeName: string): Domain => ({
  name: typeName,
  values: [true, false].map((b, i) => ({ value: { t: 'elem', v: i, coq: String(b) } as Value, coq: String(b) })),
});

/** All functions from a finite carrier (arity 1 or 2) to a finite codomain, printed with `if`. */
function finiteFunctions(args: Domain[], codomain: { coq: string; value: Value }[]): { coq: string; value: Value }[] {
  const size = args.reduce((n, d) => n * d.values.length, 1);
  if (size > 4 || codomain.length ** size > 16) return [];
  const tables: number[][] = [[]];
  for (let k = 0; k < size; k++) {
    const next: number[][] = [];
    for (const t of tables) for (let c = 0; c < codomain.length; c++) next.push([...t, c]);
    tables.splice(0, tables.length, ...next);
  }
  const names = args.map((_, i) => `arbor_x${i}`);
  return tables.map((table) => {
    // Coq: nested `if` on the (bool) carrier elements; index = mixed-radix position of the arguments.
    const build = (depth: number, offset: number, stride: number): string => {
      if (depth === args.length) return codomain[table[offset] as number]?.coq ?? 'False';
      const n = (args[depth] as Domain).values.length;
      const sub = stride / n;
      return `(if ${names[depth]} then ${build(depth + 1, offset, sub)} else ${build(depth + 1, offset + sub, sub)})`;
    };
    const coq = `fun ${names.map((n, i) => `(${n} : ${(args[i] as Domain).name})`).join(' ')} => ${build(0, 0, size)}`;
    const value: Value = {
      t: 'fn',
      call: (vs) => {
        let idx = 0;
        vs.slice(0, args.length).forEach((v, i) => { idx = idx * (args[i] as Domain).values.length + (v.t === 'elem' ? v.v : 0); });
        return codomain[table[idx] as number]?.value ?? { t: 'prop', v: false };
      },
    };
    return { coq, value };
  });
}

const propCodomain = [{ coq: 'True', value: { t: 'prop', v: true } as Value }, { coq: 'False', value: { t: 'prop', v: false } as Value }];
const boolCodomain = [{ coq: 'true', value: { t: 'bool', v: true } as Value }, { coq: 'false', value: { t: 'bool', v: false } as Value }];

/**
 * Candidate interpretations per parameter, in declaration order; `null` when some parameter's type is
 * outside what the refutation tier can model (the tier then stays silent).
 */
export function interpretationCandidates(params: ContextParameter[], env: EvalEnv): Interpretation[][] | null {
  const out: Interpretation[][] = [];
  for (const p of params) {
    const type = normaliseType(p.type);
    if (type === null) return null;
    if (type === 'Type' || type === 'Set') {
      const carrier = boolCarrier(p.name);
      env.types.set(p.name, carrier);
      out.push([{ name: p.name, type: p.type, coq: 'bool', value: null, carrier }]);
      continue;
    }
    const fam = families[type];
    if (fam) {
      out.push(fam.map((coq) => ({ name: p.name, type: p.type, coq, value: evaluate(parseStatement(coq, 'coq'), env) })));
      continue;
    }
    // Types over abstract carriers: A, A → Prop, A → A → Prop, A → A, A → bool.
    const parts = type.split(' → ');
    const carriers = parts.map((n) => env.types.get(n));
    const last = parts[parts.length - 1] as string;
    const argCarriers = carriers.slice(0, -1);
    if (parts.length === 1 && carriers[0]) {
      out.push(carriers[0].values.map((v) => ({ name: p.name, type: p.type, coq: v.coq, value: v.value })));
      continue;
    }
    if (parts.length >= 2 && argCarriers.every((c) => c !== undefined)) {
      const cod = last === 'Prop' ? propCodomain : last === 'bool' ? boolCodomain : env.types.get(last)?.values;
      if (!cod) return null;
      const fns = finiteFunctions(argCarriers as Domain[], cod);
      if (fns.length === 0) return null;
      out.push(fns.map((f) => ({ name: p.name, type: p.type, coq: f.coq, value: f.value })));
      continue;
    }
    return null;
  }
  return out;
}

function normaliseType(type: string): string | null {
  try {
    return printCanonical(parseStatement(type, 'coq'), 'coq');
  } catch {
    return null;
  }
}

/** Cartesian product of candidate lists, lazily, capped. */
export function* combinations(lists: Interpretation[][], cap: number): Generator<Interpretation[]> {
  let produced = 0;
  const rec = function* (i: number, acc: Interpretation[]): Generator<Interpretation[]> {
    if (produced >= cap) return;
    if (i === lists.length) { produced++; yield acc; return; }
    for (const c of lists[i] as Interpretation[]) yield* rec(i + 1, [...acc, c]);
  };
  yield* rec(0, []);
}
