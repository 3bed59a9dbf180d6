/**
 * AIM terms and equations as hash-consed terms of a `TermBank`, from the shared ARTICLE syntax
 * (`shared/equational/aim-syntax.ts`: nested infix operators must be parenthesised).
 */
import type { AimSyntax } from '../../../shared/equational/aim-syntax.ts';
import { AimSyntaxError, parseAimEquation, parseAimTerm } from '../../../shared/equational/aim-syntax.ts';
import { DEFINED, SYM, type Term, type TermBank } from './term.ts';

/** The eq backend's name for a syntax error (one class: the shared parser's). */
export { AimSyntaxError as TermSyntaxError };

export interface ParseOptions {
  /** How lowercase names other than `e` are read: as variables (axioms, lemmas) or as constants (a goal's fixed variables). */
  names: 'variables' | 'constants';
  /** Variable numbering shared across the sides of one equation (name -> index). */
  varIndex?: Map<string, number>;
}

const INFIX: Record<string, number> = { '*': SYM.mul, '\\': SYM.ldiv, '/': SYM.rdiv };

function build(bank: TermBank, syntax: AimSyntax, options: ParseOptions, vars: Map<string, number>): Term {
  const args = syntax.args.map((a) => build(bank, a, options, vars));
  switch (syntax.kind) {
    case 'infix':
      return bank.app(INFIX[syntax.symbol] as number, args);
    case 'operation': {
      const f = DEFINED[syntax.symbol];
      if (f === undefined) throw new AimSyntaxError(`unknown operation '${syntax.symbol}'`);
      if (args.length !== bank.arity(f)) throw new AimSyntaxError(`${syntax.symbol} takes ${bank.arity(f)} arguments, got ${args.length}`);
      return bank.app(f, args);
    }
    case 'identity':
      return bank.app(SYM.e, []);
    case 'name': {
      if (options.names === 'constants') return bank.const(syntax.symbol);
      let idx = vars.get(syntax.symbol);
      if (idx === undefined) {
        idx = vars.size;
        vars.set(syntax.symbol, idx);
      }
      return bank.v(idx);
    }
  }
}

export function parseTerm(bank: TermBank, text: string, options: ParseOptions): Term {
  return build(bank, parseAimTerm(text), options, options.varIndex ?? new Map());
}

export interface ParsedEquation {
  lhs: Term;
  rhs: Term;
  /** Variable names by index (empty when names are constants). */
  varNames: string[];
}

export function parseEquation(bank: TermBank, text: string, options: ParseOptions): ParsedEquation {
  const vars = options.varIndex ?? new Map<string, number>();
  const syntax = parseAimEquation(text);
  const lhs = build(bank, syntax.lhs, options, vars);
  const rhs = build(bank, syntax.rhs, options, vars);
  const varNames: string[] = [];
  for (const [name, i] of vars) varNames[i] = name;
  return { lhs, rhs, varNames };
}
