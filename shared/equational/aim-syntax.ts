/**
 * The syntax of AIM terms and equations (the ARTICLE format): variables and constants, the identity `e`,
 * the infix `*` `\` `/`, and the defined operations `a K T L R`. Nested infix operators must be
 * parenthesised (the problem files always do this); an unparenthesised chain such as `x * y / z` is
 * rejected rather than guessed, because its two readings are different theorems. Pure: the eq backend
 * builds its hash-consed terms from this tree, the renderer its term views.
 */
export interface AimSyntax {
  /** `*`, `\`, `/`, `e`, an operation name, or a variable/constant name. */
  symbol: string;
  kind: 'infix' | 'operation' | 'identity' | 'name';
  args: AimSyntax[];
}

export const AIM_INFIX: ReadonlySet<string> = new Set(['*', '\\', '/']);
export const AIM_OPERATION_ARITY: Readonly<Record<string, number>> = { a: 3, K: 2, T: 2, L: 3, R: 3 };

export class AimSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AimSyntaxError';
  }
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*([A-Za-z_][A-Za-z0-9_']*|[()*\\/,=])/y;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new AimSyntaxError(`unexpected character '${text.slice(pos).trim()[0] ?? ''}' at ${pos}`);
    tokens.push(m[1] as string);
    pos = re.lastIndex;
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: string[]) {}

  peek(): string | undefined {
    return this.tokens[this.i];
  }

  expect(tok: string): void {
    const t = this.tokens[this.i];
    if (t !== tok) throw new AimSyntaxError(`expected '${tok}' but found ${t === undefined ? 'end of input' : `'${t}'`}`);
    this.i++;
  }

  atEnd(): boolean {
    return this.i >= this.tokens.length;
  }

  term(): AimSyntax {
    const left = this.primary();
    const op = this.peek();
    if (op === undefined || !AIM_INFIX.has(op)) return left;
    this.i++;
    const right = this.primary();
    const next = this.peek();
    if (next !== undefined && AIM_INFIX.has(next)) {
      throw new AimSyntaxError(`ambiguous '${op} … ${next}': parenthesise nested operators`);
    }
    return { symbol: op, kind: 'infix', args: [left, right] };
  }

  private primary(): AimSyntax {
    const tok = this.peek();
    if (tok === undefined) throw new AimSyntaxError('unexpected end of input');
    if (tok === '(') {
      this.i++;
      const t = this.term();
      this.expect(')');
      return t;
    }
    if (!/^[A-Za-z_]/.test(tok)) throw new AimSyntaxError(`unexpected '${tok}'`);
    this.i++;
    const arity = AIM_OPERATION_ARITY[tok];
    if (this.peek() === '(') {
      if (arity === undefined) throw new AimSyntaxError(`unknown operation '${tok}' (known: ${Object.keys(AIM_OPERATION_ARITY).join(' ')})`);
      this.i++;
      const args = [this.term()];
      while (this.peek() === ',') {
        this.i++;
        args.push(this.term());
      }
      this.expect(')');
      if (args.length !== arity) throw new AimSyntaxError(`${tok} takes ${arity} arguments, got ${args.length}`);
      return { symbol: tok, kind: 'operation', args };
    }
    if (tok === 'e') return { symbol: tok, kind: 'identity', args: [] };
    // `a` alone is an ordinary name (a variable called a); the other operations need their arguments.
    if (arity !== undefined && tok !== 'a') throw new AimSyntaxError(`${tok} needs arguments`);
    return { symbol: tok, kind: 'name', args: [] };
  }
}

export function parseAimTerm(text: string): AimSyntax {
  const p = new Parser(tokenize(text));
  const t = p.term();
  if (!p.atEnd()) throw new AimSyntaxError(`unexpected '${p.peek() ?? ''}' after term`);
  return t;
}

export function parseAimEquation(text: string): { lhs: AimSyntax; rhs: AimSyntax } {
  const p = new Parser(tokenize(text));
  const lhs = p.term();
  p.expect('=');
  const rhs = p.term();
  if (!p.atEnd()) throw new AimSyntaxError(`unexpected '${p.peek() ?? ''}' after equation`);
  return { lhs, rhs };
}
