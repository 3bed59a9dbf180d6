/**
 * Print mode 2 for Lean: Pantograph's raw s-expressions (`printExprAST`, `serializeExpressionSexp` in
 * its `Pantograph/Delate.lean`) in seed 000's form, the same form the Coq backend prints:
 *   (:c Nat.add)                 -> Nat.add                  (constants: full names)
 *   (:fv _uniq.10)               -> the local's name in the goal's context
 *   3  (a bound variable)        -> _3                       (de Bruijn index, 0 = innermost binder)
 *   (f a b)                      -> (f a b)
 *   (:lambda x T B [:i|:si|:ii]) -> (\<lambda> T B)          (binder names and kinds dropped)
 *   (:forall x T B [...])        -> (\<forall> T B)
 *   (:let x T V B)               -> (\<let> T V B)
 *   (:lit 2) / (:lit "s")        -> 2 / "s"
 *   (:sort 0) / (:sort 1) / (:sort u) -> Prop / Type / (Sort u); levels in Lean's syntax (u+1, max u v)
 *   (:mv m) / (:mvd m)           -> ?m
 *   (:proj T i e)                -> (\<proj> T i e);  (:subst m a …) -> (\<subst> ?m a …)
 * Lean's bound-variable indices are already de Bruijn indices, so only the labels change. Pure.
 */

type Sexp = string | Sexp[];

/** Atoms, parentheses and Lean-quoted strings (`(:lit "a b")`, names quoted when they contain `«`). */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push(c);
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new Error('unclosed string');
      tokens.push(text.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s()]/.test(text[j] as string)) j++;
      tokens.push(text.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

function parse(text: string): Sexp {
  const tokens = tokenize(text);
  let pos = 0;
  const read = (depth: number): Sexp => {
    if (depth > 10_000) throw new Error('too deep');
    const tok = tokens[pos++];
    if (tok === undefined) throw new Error('unexpected end');
    if (tok === ')') throw new Error("unexpected ')'");
    if (tok !== '(') return tok;
    const list: Sexp[] = [];
    while (tokens[pos] !== ')') {
      if (pos >= tokens.length) throw new Error("missing ')'");
      list.push(read(depth + 1));
    }
    pos++;
    return list;
  };
  const result = read(0);
  if (pos !== tokens.length) throw new Error('trailing text');
  return result;
}

const BINDER_INFO = new Set([':i', ':si', ':ii']);

function level(l: Sexp): string {
  if (typeof l === 'string') return l;
  const [head, ...args] = l;
  if (head === ':mv') return `?${String(args[0])}`;
  if (head === '+') return `${level(args[0] as Sexp)}+${level(args[1] as Sexp)}`;
  if (head === ':max' || head === ':imax') return `(${head.slice(1)} ${args.map(level).join(' ')})`;
  throw new Error(`unknown level ${String(head)}`);
}

function sort(l: Sexp): string {
  if (l === '0') return 'Prop';
  if (l === '1') return 'Type';
  // `Sort (u+1)` is `Type u`: Pantograph prints it `(+ u 1)`.
  if (Array.isArray(l) && l[0] === '+' && l[2] === '1') return `(Type ${level(l[1] as Sexp)})`;
  if (typeof l === 'string' && /^\d+$/.test(l)) return `(Type ${Number(l) - 1})`;
  return `(Sort ${level(l)})`;
}

/**
 * Converts one Pantograph s-expression. `locals` maps a free variable's internal name to the name shown
 * in the goal's context; free variables not in it keep their internal name.
 */
export function leanSexpToSeed(raw: string, locals: ReadonlyMap<string, string>): string {
  const go = (e: Sexp): string => {
    if (typeof e === 'string') return /^\d+$/.test(e) ? `_${e}` : e;
    const [head, ...args] = e;
    if (head === undefined) throw new Error('empty list');
    if (typeof head === 'string' && head.startsWith(':')) {
      const a = (i: number): Sexp => {
        const x = args[i];
        if (x === undefined) throw new Error(`${head} needs ${i + 1} arguments`);
        return x;
      };
      switch (head) {
        case ':c': return String(a(0));
        case ':fv': return locals.get(String(a(0))) ?? String(a(0));
        case ':mv':
        case ':mvd': return `?${String(a(0))}`;
        case ':sort': return sort(a(0));
        case ':lit': return String(a(0));
        case ':lambda':
        case ':forall': {
          if (args.length > 3 && !BINDER_INFO.has(String(args[3]))) throw new Error(`unknown binder kind ${String(args[3])}`);
          return `(${head === ':lambda' ? '\\<lambda>' : '\\<forall>'} ${go(a(1))} ${go(a(2))})`;
        }
        case ':let': return `(\\<let> ${go(a(1))} ${go(a(2))} ${go(a(3))})`;
        case ':proj': return `(\\<proj> ${String(a(0))} ${String(a(1))} ${go(a(2))})`;
        case ':subst': return `(\\<subst> ${args.map(go).join(' ')})`;
        default: throw new Error(`unknown form ${head}`);
      }
    }
    return `(${e.map(go).join(' ')})`;
  };
  return go(parse(raw));
}

/** Like `leanSexpToSeed`, but never throws: a form Arbor does not know leaves the raw text, marked. */
export function leanSexpToSeedOrRaw(raw: string, locals: ReadonlyMap<string, string>): string {
  try {
    return leanSexpToSeed(raw, locals);
  } catch (err) {
    return `(\\<raw> ${JSON.stringify(raw)} ${JSON.stringify((err as Error).message)})`;
  }
}
