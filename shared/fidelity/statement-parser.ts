import { tokenize } from './statement-lexer.ts';
import type { Token } from './statement-lexer.ts';
import type { Binder, InfixOp, StatementSyntax, Term } from './statement-term.ts';

/** Binding power (higher binds tighter) and associativity of an infix operator. */
export interface OpInfo { bp: number; assoc: 'left' | 'right' | 'none' }

/**
 * Coq's notation levels (Init.Logic/Peano/ListNotations) turned into binding powers (100 − level), and
 * Lean 4's precedences as they are. The two differ where it matters: in Coq `→` binds looser than `↔`,
 * in Lean tighter.
 */
export const operatorTables: Record<StatementSyntax, Partial<Record<InfixOp, OpInfo>>> = {
  coq: {
    '→': { bp: 1, assoc: 'right' }, '↔': { bp: 5, assoc: 'none' }, '∨': { bp: 15, assoc: 'right' }, '∧': { bp: 20, assoc: 'right' },
    '=': { bp: 30, assoc: 'none' }, '≠': { bp: 30, assoc: 'none' }, '<': { bp: 30, assoc: 'none' }, '≤': { bp: 30, assoc: 'none' },
    '>': { bp: 30, assoc: 'none' }, '≥': { bp: 30, assoc: 'none' },
    '::': { bp: 40, assoc: 'right' }, '++': { bp: 40, assoc: 'right' },
    '+': { bp: 50, assoc: 'left' }, '-': { bp: 50, assoc: 'left' },
    '*': { bp: 60, assoc: 'left' }, '/': { bp: 60, assoc: 'left' }, 'mod': { bp: 60, assoc: 'left' },
    '^': { bp: 70, assoc: 'right' },
  },
  lean: {
    '↔': { bp: 20, assoc: 'none' }, '→': { bp: 25, assoc: 'right' }, '∨': { bp: 30, assoc: 'right' }, '∧': { bp: 35, assoc: 'right' },
    '=': { bp: 50, assoc: 'none' }, '≠': { bp: 50, assoc: 'none' }, '<': { bp: 50, assoc: 'none' }, '≤': { bp: 50, assoc: 'none' },
    '>': { bp: 50, assoc: 'none' }, '≥': { bp: 50, assoc: 'none' }, '∣': { bp: 50, assoc: 'none' },
    '++': { bp: 65, assoc: 'left' }, '+': { bp: 65, assoc: 'left' }, '-': { bp: 65, assoc: 'left' }, '::': { bp: 67, assoc: 'right' },
    '*': { bp: 70, assoc: 'left' }, '/': { bp: 70, assoc: 'left' }, '%': { bp: 70, assoc: 'left' },
    '^': { bp: 75, assoc: 'right' },
  },
};

/** Operand binding power of prefix `¬` and unary `-`, and of application. */
export const prefixPowers: Record<StatementSyntax, { not: number; neg: number; app: number }> = {
  coq: { not: 25, neg: 65, app: 90 },
  lean: { not: 39, neg: 74, app: 1000 },
};

export class ParseError extends Error {}

export function parseStatement(src: string, syntax: StatementSyntax): Term {
  const p = new Parser(tokenize(src, syntax), syntax);
  const t = p.expr(0);
  p.expectEof();
  return t;
}

class Parser {
  private i = 0;
  private readonly ops: Partial<Record<InfixOp, OpInfo>>;

  constructor(private readonly toks: Token[], private readonly syntax: StatementSyntax) {
    this.ops = operatorTables[syntax];
  }

  private peek(): Token { return this.toks[this.i] as Token; }
  private next(): Token { const t = this.peek(); if (t.kind !== 'eof') this.i++; return t; }
  private isSym(text: string): boolean { const t = this.peek(); return t.kind === 'sym' && t.text === text; }
  private eat(text: string): void {
    const t = this.next();
    if (t.kind !== 'sym' || t.text !== text) throw new ParseError(`expected '${text}' at ${t.pos}, found '${t.text || 'end'}'`);
  }
  expectEof(): void { const t = this.peek(); if (t.kind !== 'eof') throw new ParseError(`unexpected '${t.text}' at ${t.pos}`); }

  expr(minBp: number): Term {
    let left = this.prefix();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'sym' && t.text === '%' && this.syntax === 'coq') {
        // Coq scope delimiter: binds tighter than anything, applies to what precedes it.
        this.next();
        const s = this.next();
        if (s.kind !== 'ident') throw new ParseError(`expected scope name at ${s.pos}`);
        left = { kind: 'scope', body: left, scope: s.text };
        continue;
      }
      const info = t.kind === 'sym' ? this.ops[t.text as InfixOp] : undefined;
      if (info && info.bp > minBp) {
        this.next();
        const right = this.expr(info.assoc === 'right' ? info.bp - 1 : info.bp);
        left = { kind: 'infix', op: t.text as InfixOp, left, right };
        continue;
      }
      if (this.startsAtom() && prefixPowers[this.syntax].app > minBp) {
        const args: Term[] = [];
        while (this.startsAtom()) args.push(this.atom());
        left = left.kind === 'app' ? { kind: 'app', fn: left.fn, args: [...left.args, ...args] } : { kind: 'app', fn: left, args };
        continue;
      }
      return left;
    }
  }

  private startsAtom(): boolean {
    const t = this.peek();
    return t.kind === 'ident' || t.kind === 'num' || (t.kind === 'sym' && (t.text === '(' || t.text === '['));
  }

  private prefix(): Term {
    const t = this.peek();
    if (t.kind === 'sym') {
      switch (t.text) {
        case '∀': case '∃': {
          this.next();
          const binders = this.binders();
          this.eat(',');
          return { kind: 'quant', q: t.text === '∀' ? 'forall' : 'exists', binders, body: this.expr(0) };
        }
        case 'λ': {
          this.next();
          const binders = this.binders();
          if (this.isSym('=>')) this.next(); else this.eat(',');
          return { kind: 'fun', binders, body: this.expr(0) };
        }
        case '¬': this.next(); return { kind: 'not', body: this.expr(prefixPowers[this.syntax].not) };
        case '-': this.next(); return { kind: 'neg', body: this.expr(prefixPowers[this.syntax].neg) };
      }
    }
    return this.atom();
  }

  private atom(): Term {
    const t = this.next();
    if (t.kind === 'ident') return { kind: 'ident', name: t.text };
    if (t.kind === 'num') return { kind: 'num', value: t.text.replace(/^0+(?=\d)/, '') };
    if (t.kind === 'sym' && t.text === '(') {
      const inner = this.expr(0);
      if (this.isSym(':')) {
        this.next();
        const type = this.expr(0);
        this.eat(')');
        return { kind: 'ascribe', body: inner, type };
      }
      this.eat(')');
      return inner;
    }
    if (t.kind === 'sym' && t.text === '[') {
      // Coq ListNotations `[a; b]`, Lean `[a, b]`.
      const sep = this.syntax === 'coq' ? ';' : ',';
      const items: Term[] = [];
      if (!this.isSym(']')) {
        items.push(this.expr(0));
        while (this.isSym(sep)) { this.next(); items.push(this.expr(0)); }
      }
      this.eat(']');
      return { kind: 'list', items };
    }
    throw new ParseError(`unexpected '${t.text || 'end'}' at ${t.pos}`);
  }

  /** `a b : T`, `(a b : T) (c : U)`, `{a : T}`, `a b` — always returned one binder per name. */
  private binders(): Binder[] {
    const out: Binder[] = [];
    const names = (): string[] => {
      const ns: string[] = [];
      while (this.peek().kind === 'ident') ns.push(this.next().text);
      return ns;
    };
    if (this.isSym('(') || this.isSym('{')) {
      while (this.isSym('(') || this.isSym('{')) {
        const close = this.next().text === '(' ? ')' : '}';
        const ns = names();
        if (ns.length === 0) throw new ParseError(`expected binder name at ${this.peek().pos}`);
        let type: Term | null = null;
        if (this.isSym(':')) { this.next(); type = this.expr(0); }
        this.eat(close);
        for (const n of ns) out.push({ name: n, type });
      }
      return out;
    }
    const ns = names();
    if (ns.length === 0) throw new ParseError(`expected binder name at ${this.peek().pos}`);
    let type: Term | null = null;
    if (this.isSym(':')) { this.next(); type = this.expr(0); }
    for (const n of ns) out.push({ name: n, type });
    return out;
  }
}
