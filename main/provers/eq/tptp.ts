/**
 * Translation of AIM equations to TPTP CNF (all unit equations) and back. The goal's fixed
 * variables become constants `sk_<name>`; the defined operations keep their own function symbols
 * and their definitions are ordinary axioms, as in the README's E baseline.
 */
import { FIRST_CONSTANT, SYM, type Term, type TermBank, varIndex } from './term.ts';

const FN: Record<number, string> = { [SYM.e]: 'e', [SYM.mul]: 'mult', [SYM.ldiv]: 'ld', [SYM.rdiv]: 'rd', [SYM.a]: 'assoc', [SYM.K]: 'kk', [SYM.T]: 'tt', [SYM.L]: 'll', [SYM.R]: 'rr' };
const FN_BACK = new Map(Object.entries(FN).map(([k, v]) => [v, Number(k)]));

export function termToTptp(bank: TermBank, t: Term): string {
  if (t.f < 0) return `X${varIndex(t)}`;
  const name = t.f >= FIRST_CONSTANT ? `sk_${bank.symbolName(t.f)}` : (FN[t.f] as string);
  return t.args.length ? `${name}(${t.args.map((a) => termToTptp(bank, a)).join(',')})` : name;
}

/** TPTP-safe clause name for an ARTICLE equation name. */
export const tptpName = (name: string): string => `ax_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;

export function problemToTptp(bank: TermBank, axioms: readonly { name: string; lhs: Term; rhs: Term }[], goal: { lhs: Term; rhs: Term }): string {
  const lines = axioms.map((a) => `cnf(${tptpName(a.name)},axiom,${termToTptp(bank, a.lhs)} = ${termToTptp(bank, a.rhs)}).`);
  lines.push(`cnf(goal,negated_conjecture,${termToTptp(bank, goal.lhs)} != ${termToTptp(bank, goal.rhs)}).`);
  return lines.join('\n') + '\n';
}

/** Parses a TPTP term (as E prints it) back into `bank`; variables are numbered by `vars`. */
export function parseTptpTerm(bank: TermBank, text: string, vars: Map<string, number>): Term {
  let i = 0;
  const ident = (): string => {
    const m = /^[A-Za-z0-9_$]+/.exec(text.slice(i));
    if (!m) throw new Error(`TPTP term: unexpected '${text.slice(i, i + 10)}'`);
    i += m[0].length;
    return m[0];
  };
  const term = (): Term => {
    while (text[i] === ' ') i++;
    const name = ident();
    if (/^[A-Z]/.test(name)) {
      let v = vars.get(name);
      if (v === undefined) {
        v = vars.size;
        vars.set(name, v);
      }
      return bank.v(v);
    }
    const args: Term[] = [];
    if (text[i] === '(') {
      i++;
      args.push(term());
      while (text[i] === ',') {
        i++;
        args.push(term());
      }
      if (text[i] !== ')') throw new Error('TPTP term: expected )');
      i++;
    }
    const f = FN_BACK.get(name);
    if (f !== undefined) return bank.app(f, args);
    if (name.startsWith('sk_') && args.length === 0) return bank.const(name.slice(3));
    if (args.length === 0) return bank.const(name);
    throw new Error(`TPTP term: unknown function ${name}`);
  };
  const t = term();
  while (text[i] === ' ') i++;
  if (i !== text.length) throw new Error(`TPTP term: trailing '${text.slice(i)}'`);
  return t;
}
