/**
 * AIM equation goals (`s = t`) as trees for display: operator nodes `*` `\` `/`, the identity `e`,
 * the defined operations `K T L R a` and names (goal variables or constants), each labelled with its
 * AIMLEAP-style position `side.path` (side 1 = left, 2 = right; path = 1-based argument indices), the
 * same positions `RULE name@side.path` takes. Pure and dependency-free: the renderer uses it, so it
 * duplicates the eq backend's small parser instead of importing main.
 */
export interface TermNode {
  /** `*`, `\`, `/`, `e`, `K`, `T`, `L`, `R`, `a`, or a name. */
  symbol: string;
  kind: 'infix' | 'operation' | 'identity' | 'name';
  children: TermNode[];
  /** `side.path`, e.g. `1.2.1`. */
  position: string;
  /** The subterm printed in the ARTICLE syntax. */
  text: string;
}

export interface EquationView {
  lhs: TermNode;
  rhs: TermNode;
}

const INFIX = new Set(['*', '\\', '/']);
const ARITY: Record<string, number> = { a: 3, K: 2, T: 2, L: 3, R: 3 };

/** A parse failure; the message says where. */
export class TermViewError extends Error {}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*([A-Za-z_][A-Za-z0-9_']*|[()*\\/,=])/y;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new TermViewError(`unexpected character at ${pos}`);
    tokens.push(m[1] as string);
    pos = re.lastIndex;
  }
  return tokens;
}

function print(n: TermNode): string {
  if (n.kind === 'infix') return `${nestedText(n.children[0])} ${n.symbol} ${nestedText(n.children[1])}`;
  if (n.kind === 'operation') return `${n.symbol}(${n.children.map((c) => c.text).join(',')})`;
  return n.symbol;
}

// Children's `text` is unparenthesised; an infix child inside an infix parent needs brackets.
const nestedText = (c: TermNode | undefined): string => (c ? (c.kind === 'infix' ? `(${c.text})` : c.text) : '');

class Parser {
  private i = 0;
  constructor(private readonly tokens: string[]) {}

  private peek(): string | undefined {
    return this.tokens[this.i];
  }

  expect(tok: string): void {
    if (this.tokens[this.i] !== tok) throw new TermViewError(`expected '${tok}'`);
    this.i++;
  }

  atEnd(): boolean {
    return this.i >= this.tokens.length;
  }

  term(): TermNode {
    const left = this.primary();
    const op = this.peek();
    if (op === undefined || !INFIX.has(op)) return left;
    this.i++;
    const right = this.primary();
    const next = this.peek();
    // As the backend: an unparenthesised chain has two readings, so it is not an AIM term.
    if (next !== undefined && INFIX.has(next)) throw new TermViewError(`ambiguous '${op} … ${next}'`);
    return node(op, 'infix', [left, right]);
  }

  private primary(): TermNode {
    const tok = this.peek();
    if (tok === undefined) throw new TermViewError('unexpected end of input');
    if (tok === '(') {
      this.i++;
      const t = this.term();
      this.expect(')');
      return t;
    }
    if (!/^[A-Za-z_]/.test(tok)) throw new TermViewError(`unexpected '${tok}'`);
    this.i++;
    if (this.peek() === '(') {
      const arity = ARITY[tok];
      if (arity === undefined) throw new TermViewError(`unknown operation '${tok}'`);
      this.i++;
      const args = [this.term()];
      while (this.peek() === ',') {
        this.i++;
        args.push(this.term());
      }
      this.expect(')');
      if (args.length !== arity) throw new TermViewError(`${tok} takes ${arity} arguments`);
      return node(tok, 'operation', args);
    }
    if (ARITY[tok] !== undefined && tok !== 'a') throw new TermViewError(`${tok} needs arguments`);
    return node(tok, tok === 'e' ? 'identity' : 'name', []);
  }
}

function node(symbol: string, kind: TermNode['kind'], children: TermNode[]): TermNode {
  const n = { symbol, kind, children, position: '', text: '' };
  n.text = print(n);
  return n;
}

/** Positions are given after parsing: a bracketed subterm's place is known only once its parent is. */
function place(n: TermNode, pos: string): TermNode {
  return { ...n, position: pos, children: n.children.map((c, i) => place(c, `${pos}.${i + 1}`)) };
}

/** The equation `s = t` as two trees, or undefined when the text is not an AIM equation. */
export function parseEquationView(text: string): EquationView | undefined {
  try {
    const p = new Parser(tokenize(text));
    const lhs = p.term();
    p.expect('=');
    const rhs = p.term();
    if (!p.atEnd()) return undefined;
    return { lhs: place(lhs, '1'), rhs: place(rhs, '2') };
  } catch (err) {
    if (err instanceof TermViewError) return undefined;
    throw err;
  }
}

/** The node at `side.path`, if there is one. */
export function nodeAt(view: EquationView, position: string): TermNode | undefined {
  const [side, ...path] = position.split('.').map(Number);
  let n: TermNode | undefined = side === 1 ? view.lhs : side === 2 ? view.rhs : undefined;
  for (const i of path) n = n?.children[i - 1];
  return n;
}

/** Every node of a tree, preorder (root first), with its depth. */
export function flattenTerm(root: TermNode): { node: TermNode; depth: number }[] {
  const out: { node: TermNode; depth: number }[] = [];
  const walk = (n: TermNode, depth: number): void => {
    out.push({ node: n, depth });
    n.children.forEach((c) => walk(c, depth + 1));
  };
  walk(root, 0);
  return out;
}

/** Whether either side has an operator (not just names): other backends' `x = y` goals are not worth a tree. */
export const usesAimOperators = (view: EquationView): boolean => view.lhs.kind !== 'name' || view.rhs.kind !== 'name';
