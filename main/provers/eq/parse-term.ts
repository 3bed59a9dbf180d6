/**
 * Parser for AIM terms and equations in the ARTICLE syntax. Nested infix operators must be
 * parenthesised (the problem files always do this); an unparenthesised chain such as `x * y / z`
 * is rejected rather than guessed, because the two readings are different theorems.
 */
import { DEFINED, SYM, type Term, type TermBank } from './term.ts';

export class TermSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TermSyntaxError';
  }
}

export interface ParseOptions {
  /** How lowercase names other than `e` are read: as variables (axioms, lemmas) or as constants (a goal's fixed variables). */
  names: 'variables' | 'constants';
  /** Variable numbering shared across the sides of one equation (name -> index). */
  varIndex?: Map<string, number>;
}

const INFIX: Record<string, number> = { '*': SYM.mul, '\\': SYM.ldiv, '/': SYM.rdiv };

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*([A-Za-z_][A-Za-z0-9_']*|[()*\\/,=])/y;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new TermSyntaxError(`unexpected character '${text.slice(pos).trim()[0] ?? ''}' at ${pos}`);
    tokens.push(m[1] as string);
    pos = re.lastIndex;
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: string[],
    private readonly bank: TermBank,
    private readonly options: ParseOptions,
    private readonly vars: Map<string, number>,
  ) {}

  peek(): string | undefined {
    return this.tokens[this.i];
  }

  expect(tok: string): void {
    const t = this.tokens[this.i];
    if (t !== tok) throw new TermSyntaxError(`expected '${tok}' but found ${t === undefined ? 'end of input' : `'${t}'`}`);
    this.i++;
  }

  atEnd(): boolean {
    return this.i >= this.tokens.length;
  }

  term(): Term {
    const left = this.primary();
    const op = this.peek();
    if (op === undefined || INFIX[op] === undefined) return left;
    this.i++;
    const right = this.primary();
    const next = this.peek();
    if (next !== undefined && INFIX[next] !== undefined) {
      throw new TermSyntaxError(`ambiguous '${op} … ${next}': parenthesise nested operators`);
    }
    return this.bank.app(INFIX[op], [left, right]);
  }

  primary(): Term {
    const tok = this.peek();
    if (tok === undefined) throw new TermSyntaxError('unexpected end of input');
    if (tok === '(') {
      this.i++;
      const t = this.term();
      this.expect(')');
      return t;
    }
    if (!/^[A-Za-z_]/.test(tok)) throw new TermSyntaxError(`unexpected '${tok}'`);
    this.i++;
    if (this.peek() === '(') {
      const f = DEFINED[tok];
      if (f === undefined) throw new TermSyntaxError(`unknown operation '${tok}' (known: ${Object.keys(DEFINED).join(' ')})`);
      this.i++;
      const args = [this.term()];
      while (this.peek() === ',') {
        this.i++;
        args.push(this.term());
      }
      this.expect(')');
      const arity = this.bank.arity(f);
      if (args.length !== arity) throw new TermSyntaxError(`${tok} takes ${arity} arguments, got ${args.length}`);
      return this.bank.app(f, args);
    }
    if (tok === 'e') return this.bank.app(SYM.e, []);
    if (DEFINED[tok] !== undefined && tok !== 'a') throw new TermSyntaxError(`${tok} needs arguments`);
    if (this.options.names === 'constants') return this.bank.const(tok);
    let idx = this.vars.get(tok);
    if (idx === undefined) {
      idx = this.vars.size;
      this.vars.set(tok, idx);
    }
    return this.bank.v(idx);
  }
}

export function parseTerm(bank: TermBank, text: string, options: ParseOptions): Term {
  const p = new Parser(tokenize(text), bank, options, options.varIndex ?? new Map());
  const t = p.term();
  if (!p.atEnd()) throw new TermSyntaxError(`unexpected '${p.peek() ?? ''}' after term`);
  return t;
}

export interface ParsedEquation {
  lhs: Term;
  rhs: Term;
  /** Variable names by index (empty when names are constants). */
  varNames: string[];
}

export function parseEquation(bank: TermBank, text: string, options: ParseOptions): ParsedEquation {
  const vars = options.varIndex ?? new Map<string, number>();
  const p = new Parser(tokenize(text), bank, options, vars);
  const lhs = p.term();
  p.expect('=');
  const rhs = p.term();
  if (!p.atEnd()) throw new TermSyntaxError(`unexpected '${p.peek() ?? ''}' after equation`);
  const varNames: string[] = [];
  for (const [name, i] of vars) varNames[i] = name;
  return { lhs, rhs, varNames };
}
