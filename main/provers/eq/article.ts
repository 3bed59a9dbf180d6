/**
 * Reader for AIM "ARTICLE" files: axioms, definitions, `Known` lemmas and `Theorem` lines. Every
 * axiom, definition and known lemma is a named equation; they are numbered in file order (AIMLEAP
 * numbers the standard preamble's 87 equations 0–86 exactly this way: lid … s2, a K T L R, TT … RR,
 * then the knowns), which is the numbering the advisor protocol's option slots use.
 */
import { DEFINED, type Term, type TermBank } from './term.ts';
import { parseEquation, parseTerm, TermSyntaxError } from './parse-term.ts';

export type EquationKind = 'axiom' | 'definition' | 'known';

export interface NamedEquation {
  index: number;
  name: string;
  kind: EquationKind;
  lhs: Term;
  rhs: Term;
  /** Source variable names by variable index. */
  varNames: string[];
  /** The statement as written in the file (for scripts and messages). */
  text: string;
}

export interface TheoremLine {
  name: string;
  /** `lhs = rhs` as written. */
  statement: string;
}

export interface Article {
  equations: NamedEquation[];
  byName: Map<string, NamedEquation>;
  theorems: TheoremLine[];
}

export class ArticleSyntaxError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'ArticleSyntaxError';
  }
}

const stripComments = (text: string): string => text.replace(/\(\*[\s\S]*?\*\)/g, (m) => m.replace(/[^\n]/g, ' '));

export function parseArticle(bank: TermBank, text: string): Article {
  const equations: NamedEquation[] = [];
  const byName = new Map<string, NamedEquation>();
  const theorems: TheoremLine[] = [];
  const lines = stripComments(text).split(/\r?\n/);
  const add = (lineNo: number, eq: Omit<NamedEquation, 'index'>): void => {
    if (byName.has(eq.name)) throw new ArticleSyntaxError(lineNo, `duplicate name ${eq.name}`);
    const named = { ...eq, index: equations.length };
    equations.push(named);
    byName.set(eq.name, named);
  };
  lines.forEach((raw, k) => {
    const lineNo = k + 1;
    const line = raw.trim();
    if (line === '' || line === 'ARTICLE' || line.startsWith('ARTICLE@') || line === 'Admitted.' || line === 'Qed.') return;
    try {
      let m = /^(Axiom|Known)\s+([A-Za-z0-9_']+)\s*:\s*(.*)\.$/.exec(line);
      if (m) {
        const statement = m[3] as string;
        const eq = parseEquation(bank, statement, { names: 'variables' });
        add(lineNo, { name: m[2] as string, kind: m[1] === 'Axiom' ? 'axiom' : 'known', lhs: eq.lhs, rhs: eq.rhs, varNames: eq.varNames, text: statement });
        return;
      }
      m = /^Definition\s+([A-Za-z])\s*\(([^)]*)\)\s*:=\s*(.*)\.$/.exec(line);
      if (m) {
        const name = m[1] as string;
        const f = DEFINED[name];
        if (f === undefined) throw new TermSyntaxError(`unknown defined operation ${name}`);
        const params = (m[2] as string).split(',').map((s) => s.trim());
        const varIndex = new Map(params.map((p, i) => [p, i] as const));
        const lhs = bank.app(f, params.map((_, i) => bank.v(i)));
        const rhs = parseTerm(bank, m[3] as string, { names: 'variables', varIndex });
        if (varIndex.size !== params.length) throw new TermSyntaxError(`definition of ${name} uses a variable that is not a parameter`);
        add(lineNo, { name, kind: 'definition', lhs, rhs, varNames: params, text: `${name}(${params.join(',')}) = ${(m[3] as string).trim()}` });
        return;
      }
      m = /^(Theorem|Lemma|Corollary)\s+([A-Za-z0-9_']+)\s*:\s*(.*)\.$/.exec(line);
      if (m) {
        theorems.push({ name: m[2] as string, statement: (m[3] as string).trim() });
        return;
      }
      throw new TermSyntaxError(`unrecognised line: ${line.slice(0, 60)}`);
    } catch (err) {
      if (err instanceof TermSyntaxError) throw new ArticleSyntaxError(lineNo, err.message);
      throw err;
    }
  });
  return { equations, byName, theorems };
}
