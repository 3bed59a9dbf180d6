import { operatorTables, prefixPowers } from './statement-parser.ts';
import type { Binder, StatementSyntax, Term } from './statement-term.ts';

/**
 * Canonical display form: Unicode notation, one space around infix operators, binders as
 * `∀ (a : T) (b : T), P`, and only the parentheses the syntax's precedences require. Two trees print
 * equal iff they are equal, which is what S0/S1 compare.
 */
export function printCanonical(term: Term, syntax: StatementSyntax): string {
  return new Printer(syntax).print(term, -1);
}

const ATOM = 10_000;

class Printer {
  constructor(private readonly syntax: StatementSyntax) {}

  private prec(t: Term): number {
    switch (t.kind) {
      case 'infix': return operatorTables[this.syntax][t.op]?.bp ?? 0;
      case 'assoc': return operatorTables[this.syntax][t.op]?.bp ?? 0;
      case 'not': return prefixPowers[this.syntax].not;
      case 'neg': return prefixPowers[this.syntax].neg;
      case 'app': return prefixPowers[this.syntax].app;
      case 'quant': case 'fun': return -1;
      default: return ATOM;
    }
  }

  /** Print `t` where the surrounding parser state requires precedence > minBp. */
  print(t: Term, minBp: number): string {
    const s = this.raw(t);
    const p = this.prec(t);
    const needs = minBp >= 0 && (p <= minBp || t.kind === 'quant' || t.kind === 'fun');
    return needs ? `(${s})` : s;
  }

  private binders(bs: Binder[]): string {
    return bs.map((b) => (b.type ? `(${b.name} : ${this.print(b.type, -1)})` : b.name)).join(' ');
  }

  private raw(t: Term): string {
    switch (t.kind) {
      case 'ident': return t.name;
      case 'num': return t.value;
      case 'app': {
        const ap = prefixPowers[this.syntax].app;
        return [this.print(t.fn, ap - 1), ...t.args.map((a) => this.print(a, ap))].join(' ');
      }
      case 'infix': {
        const info = operatorTables[this.syntax][t.op] ?? { bp: 0, assoc: 'none' as const };
        const leftMin = info.assoc === 'left' ? info.bp - 1 : info.bp;
        const rightMin = info.assoc === 'right' ? info.bp - 1 : info.bp;
        return `${this.print(t.left, leftMin)} ${t.op} ${this.print(t.right, rightMin)}`;
      }
      case 'assoc': {
        const bp = operatorTables[this.syntax][t.op]?.bp ?? 0;
        return t.items.map((i) => this.print(i, bp)).join(` ${t.op} `);
      }
      case 'not': {
        // Readability: an infix operand of ¬ gets parentheses even where precedence does not need them.
        const b = t.body;
        const inner = b.kind === 'infix' || b.kind === 'assoc' ? `(${this.raw(b)})` : this.print(b, prefixPowers[this.syntax].not - 1);
        return `¬ ${inner}`;
      }
      case 'neg': return `-${this.print(t.body, prefixPowers[this.syntax].neg - 1)}`;
      case 'quant': return `${t.q === 'forall' ? '∀' : '∃'} ${this.binders(t.binders)}, ${this.print(t.body, -1)}`;
      case 'fun': return `λ ${this.binders(t.binders)} => ${this.print(t.body, -1)}`;
      case 'list': return `[${t.items.map((i) => this.print(i, -1)).join(this.syntax === 'coq' ? '; ' : ', ')}]`;
      case 'scope': return `${this.print(t.body, ATOM - 1)}%${t.scope}`;
      case 'ascribe': return `(${this.print(t.body, -1)} : ${this.print(t.type, -1)})`;
    }
  }
}
