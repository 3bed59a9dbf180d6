/**
 * The optional comparison context: Coq vernacular declaring what both statements share. The proof tiers
 * paste it verbatim into a `Section`; the refutation tier needs its structure (which names are abstract
 * parameters, which are hypotheses or definitions), read here from a small sentence grammar.
 */
export interface ContextParameter { name: string; type: string }
export interface ContextHypothesis { name: string; statement: string }
export interface ContextDefinition { name: string; params: string; returnType: string | null; body: string; sentence: string }

export interface FidelityContext {
  /** The vernacular as given. */
  text: string;
  parameters: ContextParameter[];
  hypotheses: ContextHypothesis[];
  definitions: ContextDefinition[];
  /** Sentences the refutation tier cannot interpret (Fixpoint, Inductive, …); proof tiers still use them. */
  opaque: string[];
  /** `Open Scope Z_scope` makes numerals integers. */
  zScope: boolean;
}

export const emptyContext = (): FidelityContext => ({ text: '', parameters: [], hypotheses: [], definitions: [], opaque: [], zScope: false });

/** Split vernacular into sentences: a `.` followed by blank or end, outside comments and brackets. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' && text[i + 1] === '*') {
      const end = text.indexOf('*)', i + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '.' && depth <= 0 && (i + 1 === text.length || /\s/u.test(text[i + 1] as string))) {
      const s = text.slice(start, i).replace(/\(\*[\s\S]*?\*\)/gu, ' ').trim();
      if (s) out.push(s);
      start = i + 1;
    }
  }
  const rest = text.slice(start).replace(/\(\*[\s\S]*?\*\)/gu, ' ').trim();
  if (rest) out.push(rest);
  return out;
}

/** Index of the first top-level occurrence of `needle` (outside brackets), or -1. */
function topLevelIndex(s: string, needle: string, from = 0): number {
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && s.startsWith(needle, i)) return i;
  }
  return -1;
}

/** `a b : T` or `(a : T) (b c : U)` → one parameter per name. */
function parseBinderDecl(rest: string): ContextParameter[] {
  const out: ContextParameter[] = [];
  const groups = rest.trim().startsWith('(') ? [...rest.matchAll(/\(([^()]*(?:\([^()]*\)[^()]*)*)\)/gu)].map((m) => m[1] as string) : [rest];
  for (const g of groups) {
    const colon = topLevelIndex(g, ':');
    if (colon < 0) continue;
    const type = g.slice(colon + 1).trim();
    for (const name of g.slice(0, colon).trim().split(/\s+/u)) if (name) out.push({ name, type });
  }
  return out;
}

/** A sentence of the context as the prover delimited it: its exact text, and the prover's reprint (comments gone). */
export interface ContextSentence { text: string; pp: string }

/**
 * The context's structure. With `sentences` (Coq's own delimitation, the only one for text that reaches
 * Coq) the text is rebuilt from them and each is read from Coq's reprint; without, the text is split
 * here (backends that never paste it into a prover file).
 */
export function parseContext(text: string, sentences?: readonly ContextSentence[]): FidelityContext {
  const ctx: FidelityContext = { ...emptyContext(), text: sentences ? sentences.map((s) => s.text.trim()).join('\n') : text };
  const read = sentences
    ? sentences.map((s) => ({ sentence: s.pp.replace(/\.$/u, ''), exact: s.text.trim().replace(/\.$/u, '') }))
    : splitSentences(text).map((s) => ({ sentence: s, exact: s }));
  for (const { sentence, exact } of read) {
    const m = /^(\S+)\s+([\s\S]*)$/u.exec(sentence);
    const kw = m?.[1] ?? sentence;
    const rest = m?.[2] ?? '';
    if (/^(Variables?|Parameters?|Context)$/u.test(kw)) {
      ctx.parameters.push(...parseBinderDecl(rest));
    } else if (/^(Hypothesis|Hypotheses|Axiom|Axioms)$/u.test(kw)) {
      for (const p of parseBinderDecl(rest)) ctx.hypotheses.push({ name: p.name, statement: p.type });
    } else if (/^(Definition|Let)$/u.test(kw)) {
      const assign = topLevelIndex(rest, ':=');
      if (assign < 0) { ctx.opaque.push(exact); continue; }
      const head = rest.slice(0, assign).trim();
      const body = rest.slice(assign + 2).trim();
      const name = head.split(/[\s(:]/u)[0] as string;
      let sig = head.slice(name.length).trim();
      let returnType: string | null = null;
      const colon = topLevelIndex(sig, ':');
      if (colon >= 0) { returnType = sig.slice(colon + 1).trim(); sig = sig.slice(0, colon).trim(); }
      ctx.definitions.push({ name, params: sig, returnType, body, sentence: exact });
    } else if (/^(Require|Import|Export|From|Set|Unset|Local|Global|Arguments|Notation|Infix|Implicit)$/u.test(kw)) {
      if (/Open\s+Scope\s+Z_scope/u.test(sentence)) ctx.zScope = true;
    } else if (kw === 'Open') {
      if (/Z_scope/u.test(sentence)) ctx.zScope = true;
    } else {
      ctx.opaque.push(exact);
    }
  }
  return ctx;
}
