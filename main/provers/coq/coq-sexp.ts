import { COQ_BLANK, NAME_PART, NAME_START } from './coq-sentence.ts';

/**
 * Print mode 2: converts a term printed by Coq under `Set Printing All` (no notations, explicit
 * arguments) into seed 000's s-expression form:
 *   application      f a b        -> (f a b)
 *   fun (x : T) => B             -> (\<lambda> T B)
 *   forall (x : T), B  (and A -> B, printed forall (_ : A), B) -> (\<forall> T B)
 *   let x : T := V in B          -> (\<let> T V B)        (T is _ when Coq omits it)
 *   match S with | C x y => B .. -> (\<match> S (C B) ..) (the pattern's variables bind in B)
 * Bound variables become de Bruijn indices `_n` (0 = innermost binder); names of the local context stay
 * as they are; every other name goes through `resolve` (the session maps it to its full name with
 * `Locate`). Pure: no prover access here.
 */

export type CoqTerm =
  | { k: 'name'; name: string }
  | { k: 'app'; f: CoqTerm; args: CoqTerm[] }
  | { k: 'bind'; q: 'forall' | 'lambda'; name: string; type: CoqTerm; body: CoqTerm }
  | { k: 'let'; name: string; type: CoqTerm | undefined; value: CoqTerm; body: CoqTerm }
  | { k: 'match'; scrutinee: CoqTerm; cases: { head: string; vars: string[]; body: CoqTerm }[] };

// Coq's blanks only (a no-break space is part of a name, as Coq's lexer reads it); a name as coq-sentence.ts reads
// one, dots included (qualified): every non-ASCII character is a name's (`µ`, `ª` are letters to Coq), and under
// `Set Printing All` no notation prints a symbol.
const TOKEN = new RegExp(`[${COQ_BLANK}]*(:=|=>|[${NAME_START}][${NAME_PART}.]*|\\d+|[^${COQ_BLANK}])`, 'gy');
const STOP = new Set([')', ',', ':=', ':', '=>', '|', 'with', 'in', 'end', 'return', 'as', ']', '}']);

const tokenize = (s: string): string[] => {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(s); m; m = TOKEN.exec(s)) out.push(m[1] as string);
  return out;
};

class Parser {
  private i = 0;
  constructor(private readonly t: string[]) {}
  peek(): string | undefined {
    return this.t[this.i];
  }
  next(): string {
    const tok = this.t[this.i++];
    if (tok === undefined) throw new Error('unexpected end of term');
    return tok;
  }
  expect(tok: string): void {
    const got = this.next();
    if (got !== tok) throw new Error(`expected '${tok}', got '${got}'`);
  }
  done(): boolean {
    return this.i >= this.t.length;
  }

  term(): CoqTerm {
    const tok = this.peek();
    if (tok === 'forall' || tok === 'fun') {
      this.next();
      const binders = this.binders(tok === 'forall' ? ',' : '=>');
      this.next();
      const body = this.term();
      const q = tok === 'forall' ? 'forall' : 'lambda';
      return binders.reduceRight<CoqTerm>((b, [name, type]) => ({ k: 'bind', q, name, type, body: b }), body);
    }
    if (tok === 'let') {
      this.next();
      const name = this.next();
      let type: CoqTerm | undefined;
      if (this.peek() === ':') {
        this.next();
        type = this.term();
      }
      this.expect(':=');
      const value = this.term();
      this.expect('in');
      return { k: 'let', name, type, value, body: this.term() };
    }
    if (tok === 'match') return this.match();
    return this.app();
  }

  private match(): CoqTerm {
    this.expect('match');
    const scrutinee = this.term();
    // `as x`, `in I a`, `return T`: typing annotations, dropped.
    while (this.peek() !== 'with') {
      if (this.done()) throw new Error('unterminated match');
      this.next();
    }
    this.expect('with');
    const cases: { head: string; vars: string[]; body: CoqTerm }[] = [];
    if (this.peek() === '|') this.next();
    while (this.peek() !== 'end') {
      const pat: string[] = [];
      while (this.peek() !== '=>') {
        const p = this.next();
        if (p !== '(' && p !== ')' && p !== '@') pat.push(p);
      }
      this.expect('=>');
      const body = this.term();
      cases.push({ head: pat[0] ?? '_', vars: pat.slice(1), body });
      if (this.peek() === '|') this.next();
      else if (this.peek() !== 'end') throw new Error(`bad match case near '${this.peek() ?? ''}'`);
    }
    this.expect('end');
    return { k: 'match', scrutinee, cases };
  }

  /** `(x y : T) (z : U)` or `x : T` or `x y`, up to `stop` (not consumed). */
  private binders(stop: string): [string, CoqTerm][] {
    const out: [string, CoqTerm][] = [];
    while (this.peek() !== stop) {
      if (this.peek() === '(') {
        this.next();
        const names: string[] = [];
        while (this.peek() !== ':') names.push(this.next());
        this.next();
        const type = this.term();
        this.expect(')');
        for (const n of names) out.push([n, type]);
      } else {
        const names: string[] = [];
        while (this.peek() !== ':' && this.peek() !== stop) names.push(this.next());
        const type: CoqTerm = this.peek() === ':' ? (this.next(), this.term()) : { k: 'name', name: '_' };
        for (const n of names) out.push([n, type]);
      }
    }
    return out;
  }

  private app(): CoqTerm {
    const parts: CoqTerm[] = [];
    for (;;) {
      const tok = this.peek();
      if (tok === undefined || STOP.has(tok)) break;
      if (tok === 'forall' || tok === 'fun' || tok === 'let' || tok === 'match') {
        parts.push(this.term());
        continue;
      }
      this.next();
      if (tok === '(') {
        parts.push(this.term());
        this.expect(')');
      } else if (tok === '@') {
        continue; // explicit-arguments marker: the arguments follow anyway
      } else if (tok === 'Type' && this.peek() === '@') {
        // universe instance Type@{u}: dropped
        this.next();
        this.expect('{');
        while (this.next() !== '}');
        parts.push({ k: 'name', name: 'Type' });
      } else parts.push({ k: 'name', name: tok });
    }
    if (parts.length === 0) throw new Error(`expected a term near '${this.peek() ?? 'end'}'`);
    const [f, ...args] = parts as [CoqTerm, ...CoqTerm[]];
    return args.length === 0 ? f : { k: 'app', f, args };
  }
}

export const parseCoqTerm = (text: string): CoqTerm => {
  const p = new Parser(tokenize(text));
  const t = p.term();
  if (!p.done()) throw new Error(`trailing input near '${p.peek() ?? ''}'`);
  return t;
};

/** Whether `t` nests deeper than `limit` (walked without recursion): the readers of a term recurse on it. */
export const deeperThan = (t: CoqTerm, limit: number): boolean => {
  const stack: [CoqTerm, number][] = [[t, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [u, d] = top;
    if (d > limit) return true;
    const children = u.k === 'app' ? [u.f, ...u.args] : u.k === 'bind' ? [u.type, u.body] : u.k === 'let' ? [...(u.type ? [u.type] : []), u.value, u.body] : u.k === 'match' ? [u.scrutinee, ...u.cases.map((c) => c.body)] : [];
    for (const c of children) stack.push([c, d + 1]);
  }
  return false;
};

const SORTS = new Set(['Prop', 'Set', 'Type', 'SProp', '_']);
const isGlobal = (name: string, bound: string[], locals: ReadonlySet<string>): boolean =>
  !bound.includes(name) && !locals.has(name) && !SORTS.has(name) && !/^\d/.test(name);

/** Names that are neither bound nor local: the ones to resolve to full names. */
export const globalNames = (t: CoqTerm, locals: ReadonlySet<string>): Set<string> => {
  const out = new Set<string>();
  const walk = (t: CoqTerm, bound: string[]): void => {
    switch (t.k) {
      case 'name':
        if (isGlobal(t.name, bound, locals)) out.add(t.name);
        return;
      case 'app':
        walk(t.f, bound);
        t.args.forEach((a) => walk(a, bound));
        return;
      case 'bind':
        walk(t.type, bound);
        walk(t.body, [t.name, ...bound]);
        return;
      case 'let':
        if (t.type) walk(t.type, bound);
        walk(t.value, bound);
        walk(t.body, [t.name, ...bound]);
        return;
      case 'match':
        walk(t.scrutinee, bound);
        for (const c of t.cases) {
          if (isGlobal(c.head, bound, locals)) out.add(c.head);
          walk(c.body, [...[...c.vars].reverse(), ...bound]);
        }
    }
  };
  walk(t, []);
  return out;
};

export const toSexp = (t: CoqTerm, locals: ReadonlySet<string>, resolve: (name: string) => string): string => {
  const name = (n: string, bound: string[]): string => {
    const i = bound.indexOf(n);
    if (i >= 0) return `_${i}`;
    return isGlobal(n, bound, locals) ? resolve(n) : n;
  };
  const go = (t: CoqTerm, bound: string[]): string => {
    switch (t.k) {
      case 'name':
        return name(t.name, bound);
      case 'app':
        return `(${[t.f, ...t.args].map((x) => go(x, bound)).join(' ')})`;
      case 'bind':
        return `(${t.q === 'forall' ? '\\<forall>' : '\\<lambda>'} ${go(t.type, bound)} ${go(t.body, [t.name, ...bound])})`;
      case 'let':
        return `(\\<let> ${t.type ? go(t.type, bound) : '_'} ${go(t.value, bound)} ${go(t.body, [t.name, ...bound])})`;
      case 'match': {
        const cases = t.cases.map((c) => `(${name(c.head, bound)} ${go(c.body, [...[...c.vars].reverse(), ...bound])})`);
        return `(\\<match> ${go(t.scrutinee, bound)} ${cases.join(' ')})`;
      }
    }
  };
  return go(t, []);
};

/** The term back in Coq's syntax (explicit, no notations) with every global name through `resolve`: how a statement reads, fully qualified. */
export const toCoqText = (t: CoqTerm, resolve: (name: string) => string): string => {
  const go = (t: CoqTerm, bound: string[], atom: boolean): string => {
    const wrap = (s: string): string => (atom ? `(${s})` : s);
    switch (t.k) {
      case 'name':
        return isGlobal(t.name, bound, new Set()) ? resolve(t.name) : t.name;
      case 'app':
        return wrap([go(t.f, bound, true), ...t.args.map((a) => go(a, bound, true))].join(' '));
      case 'bind': {
        const body = go(t.body, [t.name, ...bound], false);
        return wrap(t.q === 'forall' ? `forall (${t.name} : ${go(t.type, bound, false)}), ${body}` : `fun (${t.name} : ${go(t.type, bound, false)}) => ${body}`);
      }
      case 'let':
        return wrap(`let ${t.name}${t.type ? ` : ${go(t.type, bound, false)}` : ''} := ${go(t.value, bound, false)} in ${go(t.body, [t.name, ...bound], false)}`);
      case 'match': {
        const cases = t.cases.map((c) => `| ${[c.head, ...c.vars].map((n, i) => (i === 0 && isGlobal(n, bound, new Set()) ? resolve(n) : n)).join(' ')} => ${go(c.body, [...[...c.vars].reverse(), ...bound], false)}`);
        return wrap(`match ${go(t.scrutinee, bound, false)} with ${cases.join(' ')} end`);
      }
    }
  };
  return go(t, [], false);
};
