/**
 * The isabelle backend's policy for untrusted text (BRIEF §3: untrusted input reaches a prover only through
 * a policy module). Arbor writes every Minilang command itself; what comes from a client is checked here:
 *
 * - Terms go into an Isabelle string `"…"`: they may not contain `"` or a backslash other than an Isabelle
 *   symbol `\<name>` (so they cannot end the string and write Minilang of their own).
 * - Unquoted arguments (rules, methods, INDUCT's arguments, …) are split into Isabelle's outer tokens. A
 *   Minilang command keyword among them is refused: Minilang splits its input at those keywords, so
 *   `RULE conjI END` would be two commands. So are comments, verbatim text, `[[…]]` declarations (which
 *   set configuration options) and unbalanced brackets.
 * - `APPLY`'s proof method must come from a positive list of Isabelle/HOL methods whose results the kernel
 *   checks: no `tactic ‹ML›` (arbitrary ML), no `eval`/`normalization` (oracles), no `sorry`-like cheats.
 * - Names are identifiers that are not keywords; imports are theory names.
 * Minilang's own cheats (`SORRY`, `SORRY_NEXT`, `SORRY_END_ALL`, `SORRY_ONLY`) are never sent.
 */

export class PolicyRefusal extends Error {
  constructor(why: string) {
    super(`parse error: ${why}`);
  }
}

/** Every command keyword of Minilang v0.6.0 (`library/proof.ML`, `keywords`), and older ones (CRUSH, OBTAIN, GOAL). */
export const MINILANG_KEYWORDS: ReadonlySet<string> = new Set([
  'END', 'end', 'NEXT', 'SORRY', 'SORRY_NEXT', 'SORRY_END_ALL', 'SORRY_ONLY', 'CONSIDER', 'HAVE', 'SUFFICES',
  'INST_VAR', 'SPECIALIZE', 'CASE_SPLIT', 'INDUCT', 'SIMP', 'SIMPLIFY', 'INTRO', 'ALL_INTRO', 'SPLIT_CONJS',
  'SPLIT_CONJS2', 'HAMMER', 'PRINT', 'RULE', 'LET', 'APPLY', 'UNFOLD', 'CHOOSE', 'NOTATION', 'OPEN_MODULE',
  'DEFINE', 'FUN', 'FUN_DEBUG', 'CONFIG', 'STEP', 'CHAINING', 'CRUSH', 'OBTAIN', 'GOAL',
]);

/** Outer-syntax words a name may not be (Minilang's quasi-keywords and Isar's statement words). */
const RESERVED_NAMES = new Set([
  'where', 'and', 'for', 'if', 'is', 'when', 'in', 'shows', 'fixes', 'assumes', 'obtains', 'defines', 'notes',
  'includes', 'constrains', 'infix', 'infixl', 'infixr', 'VARS', 'PREMISES', 'WITH', 'WITHOUT', 'IN', 'BY_METRIC',
  'AND', 'vars', 'premises', 'with', 'begin', 'theory', 'imports', 'lemma', 'theorem', 'by', 'sorry', 'oops',
]);

/**
 * Proof methods `APPLY` may use: Isabelle/HOL's ordinary methods, each of whose results the kernel checks
 * (`smt` reconstructs its solver's proof). Anything else — `tactic`/`raw_tactic` (run ML), `eval`,
 * `normalization` (oracles), `use … in` (a method inside), unknown names — is refused.
 */
export const ALLOWED_METHODS: ReadonlySet<string> = new Set([
  'simp', 'simp_all', 'auto', 'force', 'fastforce', 'fast', 'slow', 'best', 'bestsimp', 'slowsimp', 'blast',
  'clarify', 'clarsimp', 'safe', 'iprover', 'metis', 'meson', 'arith', 'linarith', 'presburger', 'algebra',
  'argo', 'order', 'smt', 'rule', 'erule', 'drule', 'frule', 'intro', 'elim', 'induct', 'induction', 'coinduct',
  'cases', 'case_tac', 'induct_tac', 'rule_tac', 'erule_tac', 'drule_tac', 'frule_tac', 'subst', 'unfold', 'fold',
  'insert', 'assumption', 'this', 'fact', 'standard', 'intro_classes', 'unfold_locales', 'atomize', 'atomize_elim',
  'rename_tac', 'subgoal_tac', 'thin_tac', 'split', 'transfer', 'goal_cases', 'succeed', 'fail', 'contradiction',
  'defer_tac', 'prefer_tac', 'code_simp', 'eventually_elim', 'measurable', 'auto_sledgehammer',
]);

export type Token =
  | { kind: 'ident'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'cartouche'; text: string }
  | { kind: 'symbol'; text: string }
  | { kind: 'number'; text: string };

/** A term as an Isabelle string, refused when it could end the string. */
export function quoteTerm(text: string, what = 'term'): string {
  checkQuotedText(text, what);
  return `"${text}"`;
}

function checkQuotedText(text: string, what: string): void {
  if (text.trim() === '') throw new PolicyRefusal(`empty ${what}`);
  if (text.includes('"')) throw new PolicyRefusal(`a ${what} cannot contain '"' (use Isabelle's ''string'' syntax or \\<quote>)`);
  for (let i = text.indexOf('\\'); i >= 0; i = text.indexOf('\\', i + 1)) {
    if (!/^\\<\^?[A-Za-z][A-Za-z0-9_']*>/.test(text.slice(i))) throw new PolicyRefusal(`a ${what} may contain a backslash only in an Isabelle symbol (\\<name>)`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text)) throw new PolicyRefusal(`control character in ${what}`);
}

/** A fact, hypothesis, theorem or variable name. */
export function checkName(name: string, what = 'name'): string {
  if (!/^[A-Za-z][A-Za-z0-9_']*$/.test(name)) throw new PolicyRefusal(`bad ${what}: ${clip(name)}`);
  if (MINILANG_KEYWORDS.has(name) || RESERVED_NAMES.has(name)) throw new PolicyRefusal(`${what} ${name} is a keyword`);
  return name;
}

/** Theory imports of the scratch theory (a project prelude, `PRELUDE`): theory names separated by blanks. */
export function parseImports(text: string): string[] {
  const names = text.split(/[\s,]+/).filter(Boolean).map((n) => n.replace(/^"(.*)"$/, '$1'));
  for (const n of names) {
    if (!/^[A-Za-z][A-Za-z0-9_'-]*(\.[A-Za-z][A-Za-z0-9_']*)*$/.test(n)) throw new PolicyRefusal(`not a theory name: ${clip(n)} (an Isabelle prelude is theory names, e.g. "Main HOL-Library.Multiset")`);
  }
  return names;
}

/**
 * Splits unquoted Minilang arguments into outer tokens and checks them (see the module comment). Quoted
 * parts are checked as terms.
 */
export function tokenizeArguments(text: string): Token[] {
  const tokens: Token[] = [];
  const depth: string[] = [];
  const closers: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const c = text[i] as string;
    if (/\s/.test(c)) { i++; continue; }
    if (rest.startsWith('(*') || rest.startsWith('{*') || rest.startsWith('\\<comment>') || c === '`') throw new PolicyRefusal('comments and verbatim text are not allowed in arguments');
    if (rest.startsWith('[[')) throw new PolicyRefusal('[[…]] declarations are not allowed in arguments');
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new PolicyRefusal('unclosed quote');
      const body = text.slice(i + 1, end);
      checkQuotedText(body, 'quoted argument');
      tokens.push({ kind: 'string', text: body });
      i = end + 1;
      continue;
    }
    const cartouche = readCartouche(text, i);
    if (cartouche) {
      tokens.push({ kind: 'cartouche', text: cartouche.body });
      i = cartouche.end;
      continue;
    }
    const symbol = /^\\<\^?[A-Za-z][A-Za-z0-9_']*>/.exec(rest);
    if (symbol) {
      if (symbol[0].startsWith('\\<^')) throw new PolicyRefusal('control symbols are not allowed in arguments');
      tokens.push({ kind: 'symbol', text: symbol[0] });
      i += symbol[0].length;
      continue;
    }
    if (c === '\\') throw new PolicyRefusal('a backslash is allowed only in an Isabelle symbol (\\<name>)');
    const ident = /^[A-Za-z_][A-Za-z0-9_'.]*/.exec(rest) ?? /^\?[A-Za-z_][A-Za-z0-9_'.]*/.exec(rest) ?? /^'[A-Za-z_][A-Za-z0-9_']*/.exec(rest);
    if (ident) {
      const word = ident[0];
      for (const part of word.replace(/^[?']/, '').split('.')) {
        if (MINILANG_KEYWORDS.has(part)) throw new PolicyRefusal(`Minilang command ${part} inside the arguments`);
      }
      tokens.push({ kind: 'ident', text: word });
      i += word.length;
      continue;
    }
    const number = /^[0-9]+/.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', text: number[0] });
      i += number[0].length;
      continue;
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(c)) throw new PolicyRefusal('control character in arguments');
    if (c === '(' || c === '[' || c === '{') depth.push(c);
    else if (c in closers) {
      if (depth.pop() !== closers[c]) throw new PolicyRefusal(`unbalanced '${c}'`);
    }
    tokens.push({ kind: 'symbol', text: c });
    i++;
  }
  if (depth.length > 0) throw new PolicyRefusal(`unclosed '${depth[depth.length - 1]}'`);
  return tokens;
}

/**
 * `APPLY`'s method text: its tokens pass `tokenizeArguments`, and every method it names comes from
 * `ALLOWED_METHODS`. A method is named at the start, after a method-level `(`, and after a combinator
 * (`,` `;` `|`) at method level.
 */
export function checkMethod(text: string): void {
  const tokens = tokenizeArguments(text);
  if (tokens.length === 0) throw new PolicyRefusal('APPLY needs a proof method');
  let expecting = true;
  // true: a parenthesis that groups methods; false: one inside a method's arguments (or attributes).
  const groups: boolean[] = [];
  const methodLevel = (): boolean => groups.length === 0 || groups[groups.length - 1] === true;
  for (const token of tokens) {
    if (token.kind === 'symbol' && (token.text === '(' || token.text === '[' || token.text === '{')) {
      groups.push(token.text === '(' && expecting);
      continue;
    }
    if (token.kind === 'symbol' && (token.text === ')' || token.text === ']' || token.text === '}')) {
      groups.pop();
      expecting = false;
      continue;
    }
    if (token.kind === 'symbol' && (token.text === ',' || token.text === ';' || token.text === '|') && methodLevel()) {
      expecting = true;
      continue;
    }
    if (expecting) {
      if (token.kind !== 'ident') throw new PolicyRefusal(`expected a proof method, found ${clip(token.text)}`);
      if (!ALLOWED_METHODS.has(token.text)) throw new PolicyRefusal(`proof method ${clip(token.text)} is not allowed (Arbor allows Isabelle/HOL's kernel-checked methods: ${[...ALLOWED_METHODS].slice(0, 12).join(', ')}, …)`);
      expecting = false;
    }
  }
  if (expecting) throw new PolicyRefusal('APPLY ends with a combinator');
}

/** Fact references (RULE, UNFOLD, CRUSH's rules): tokens only, no quoted terms needed. */
export function checkFacts(text: string, what: string): void {
  const tokens = tokenizeArguments(text);
  if (tokens.length === 0) throw new PolicyRefusal(`${what} needs a fact`);
}

function readCartouche(text: string, start: number): { body: string; end: number } | undefined {
  const pairs: [string, string][] = [['‹', '›'], ['\\<open>', '\\<close>']];
  for (const [open, close] of pairs) {
    if (!text.startsWith(open, start)) continue;
    let depth = 0;
    let i = start;
    while (i < text.length) {
      if (text.startsWith(open, i)) { depth++; i += open.length; continue; }
      if (text.startsWith(close, i)) {
        depth--;
        i += close.length;
        if (depth === 0) {
          const body = text.slice(start + open.length, i - close.length);
          checkQuotedText(body.replace(/\\<(open|close)>|[‹›]/g, ' ').replace(/"/g, ' '), 'cartouche');
          return { body, end: i };
        }
        continue;
      }
      i++;
    }
    throw new PolicyRefusal('unclosed cartouche');
  }
  return undefined;
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
