import type { ObtainCondition, ParsedRequest, ShellCommand } from './shell-command.ts';
import { isMinilangName } from './shell-command.ts';
import { commandSpec, isCommandName, takesNoArguments } from './commands.ts';
import { COQ_BLANK, coqTrim, NAME_PART } from './coq-lexical.ts';

// The request's blanks are Coq's (space, tab, CR, LF): a no-break space is part of a name, never skipped or trimmed
// off an argument (`APPLY intros h h\u00a0` ran `intros h h`).
const BLANK = new RegExp(`[${COQ_BLANK}]`);
const BLANKS = new RegExp(`[${COQ_BLANK}]+`, 'y');
const RULE_NAME = new RegExp(`[^${COQ_BLANK},"]+`, 'y');
const COMMAND_NAME = new RegExp(`[^${COQ_BLANK}"]+`, 'y');
const OBTAIN_TYPE_WORDS = new RegExp(`(?:(?!where(?![${NAME_PART}]))[^${COQ_BLANK}"]+[${COQ_BLANK}]*)+`, 'y');

/**
 * Parses one request (already split off its line by `splitRequests`). Never throws: anything it cannot
 * read becomes `{ error }` with a short, stable message.
 */
export function parseRequest(text: string): ParsedRequest {
  const scanner = new Scanner(text);
  scanner.skipBlanks();
  let channel = 0;
  const digits = scanner.match(/[0-9]+/y);
  if (digits !== undefined) {
    // Only a number followed by a blank is a channel id; `42GOAL` is not.
    if (!scanner.atEnd() && !scanner.atBlank()) return { channel: 0, error: 'parse error: bad channel id', text };
    channel = digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits);
    scanner.skipBlanks();
  }
  const fail = (error: string): ParsedRequest => ({ channel, error, text });
  if (scanner.atEnd()) return fail('parse error: missing command');
  const name = scanner.match(COMMAND_NAME) ?? '';
  if (!isCommandName(name)) {
    return fail(`unknown command: ${clip(name)}`);
  }
  scanner.skipBlanks();
  try {
    const command = parseArguments(name, scanner);
    return { channel, command, text };
  } catch (err) {
    if (err instanceof ArgumentError) return fail(`parse error: ${err.message}`);
    throw err;
  }
}

class ArgumentError extends Error {}

// Coq's identifiers: unicode letters and digits too (`αβ'`, `λ₁`), as coqc takes them, and the no-break space,
// which Coq's lexer reads as it reads `_` (`and P` is one name). `u`: a letter outside the BMP is one
// character; positions (lastIndex) stay string offsets, which is all the Scanner uses.
const IDENT = /[\p{L}_\u00a0][\p{L}\p{N}_'.\u00a0]*/uy;
// Control characters (other than tab) never belong in a term: they are binary noise or an attempt to
// smuggle a line break past the line splitter.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function parseArguments(name: ShellCommand['name'], s: Scanner): ShellCommand {
  if (isMinilangName(name)) {
    // Minilang's own syntax, kept as written: the isabelle backend's policy checks it before Minilang sees it.
    const args = s.rest();
    // Some may be empty (`INTRO`, `ALL_INTRO` introduce everything).
    if (args === '' && commandSpec(name).args !== 'minilang-optional') throw new ArgumentError(`${name} needs arguments (Minilang syntax)`);
    return { name, args };
  }
  if (takesNoArguments(name)) {
    s.expectEnd(name);
    return { name };
  }
  switch (name) {
    case 'GOAL': {
      // `GOAL name "…"` names the theorem, which later items of the document may then use.
      const theoremName = s.peekQuote() ? undefined : s.ident('a theorem name or a quoted term');
      s.skipBlanks();
      const expr = s.quoted('a quoted term');
      s.expectEnd(name);
      return theoremName === undefined ? { name, expr } : { name, expr, theoremName };
    }
    case 'DEFINE': {
      // Unquoted: Minilang's proof-local DEFINE (`DEFINE f where "f x = …"`, isabelle backend).
      if (!s.peekQuote()) {
        const text = s.rest();
        if (text === '') throw new ArgumentError('expected a quoted declaration');
        return { name, text, proofLocal: true };
      }
      const text = s.quoted('a quoted declaration');
      s.expectEnd(name);
      return { name, text };
    }
    case 'SEARCH': {
      const pattern = s.peekQuote() ? s.quoted('a pattern') : s.rest();
      if (pattern === '') throw new ArgumentError('expected a pattern');
      s.expectEnd(name);
      return { name, pattern };
    }
    case 'CHECK': {
      const term = s.peekQuote() ? s.quoted('a term') : s.rest();
      if (term === '') throw new ArgumentError('expected a term');
      s.expectEnd(name);
      return { name, term };
    }
    case 'ABOUT':
    case 'PRINT':
    case 'LOCATE': {
      // A name, or a notation in quotes for LOCATE (`LOCATE "++"`).
      const ident = name === 'LOCATE' && s.peekQuote() ? `"${s.quoted('a notation')}"` : s.ident('a name');
      s.expectEnd(name);
      return { name, ident };
    }
    case 'HAVE': {
      const hypName = s.peekQuote() ? undefined : s.ident('a name or a quoted term');
      s.skipBlanks();
      const expr = s.quoted('a quoted term');
      s.expectEnd(name);
      return hypName === undefined ? { name, expr } : { name, hypName, expr };
    }
    case 'OBTAIN':
      return parseObtain(s);
    case 'CRUSH': {
      const rules: string[] = [];
      while (!s.atEnd()) {
        if (s.match(/,\s*/y) !== undefined) continue;
        rules.push(s.ruleName());
        s.skipBlanks();
      }
      return { name, rules };
    }
    case 'HAMMER': {
      if (s.atEnd()) return { name };
      const number = s.match(/[0-9]+(\.[0-9]+)?/y);
      if (number === undefined) throw new ArgumentError('HAMMER takes a timeout in seconds');
      s.expectEnd(name);
      const timeoutSeconds = Number(number);
      if (!(timeoutSeconds > 0) || timeoutSeconds > 3600) throw new ArgumentError('HAMMER timeout must be in (0, 3600] seconds');
      return { name, timeoutSeconds };
    }
    case 'RULE':
    case 'UNFOLD': {
      const rule = s.rest();
      if (rule === '') throw new ArgumentError(`${name} needs a rule`);
      return { name, rule };
    }
    case 'APPLY': {
      const tactic = s.rest();
      if (tactic === '') throw new ArgumentError('APPLY needs a tactic');
      return { name, tactic };
    }
    case 'LET': {
      const abbrev = s.match(/\?[A-Za-z_][A-Za-z0-9_']*/y);
      if (abbrev === undefined) throw new ArgumentError('LET needs ?name = "term"');
      s.skipBlanks();
      if (s.match(/=/y) === undefined) throw new ArgumentError('LET needs ?name = "term"');
      s.skipBlanks();
      const term = s.quoted('a quoted term');
      s.expectEnd(name);
      return { name, abbrev, term };
    }
    case 'PRINT_MODE': {
      const mode = s.match(/[12]/y);
      if (mode === undefined) throw new ArgumentError('PRINT_MODE takes 1 or 2');
      s.expectEnd(name);
      return { name, mode: mode === '1' ? 1 : 2 };
    }
    case 'REVERT': {
      const step = s.match(/[0-9]+/y);
      if (step === undefined) throw new ArgumentError('REVERT takes a step number');
      s.expectEnd(name);
      return { name, step: Number(step) };
    }
    case 'PRELUDE': {
      // `PRELUDE [environment] ["text"]`: the environment (`bare`, `arith,lists`) the document starts from.
      const environment = s.peekQuote() ? undefined : s.match(/[A-Za-z][A-Za-z0-9_]*(,[A-Za-z][A-Za-z0-9_]*)*/y);
      if (environment === undefined && !s.peekQuote()) throw new ArgumentError('PRELUDE takes an environment name and/or a quoted prelude');
      s.skipBlanks();
      const text = environment !== undefined && s.atEnd() ? '' : s.quoted('a quoted prelude');
      s.expectEnd(name);
      return environment === undefined ? { name, text } : { name, text, environment };
    }
  }
}

/** `OBTAIN v1 v2 [:: type] where [name:] "cond" [and [name:] "cond"]…` */
function parseObtain(s: Scanner): ShellCommand {
  const vars: string[] = [];
  while (!s.atEnd() && !s.lookingAt(/where\b/y) && !s.lookingAt(/::/y)) {
    vars.push(s.ident('a variable name'));
    s.skipBlanks();
  }
  if (vars.length === 0) throw new ArgumentError('OBTAIN needs at least one variable');
  let type: string | undefined;
  if (s.match(/::/y) !== undefined) {
    s.skipBlanks();
    if (s.peekQuote()) type = s.quoted('a type');
    else {
      const words = s.match(OBTAIN_TYPE_WORDS);
      type = words === undefined ? undefined : coqTrim(words);
    }
    if (!type) throw new ArgumentError('OBTAIN needs a type after ::');
    s.skipBlanks();
  }
  if (s.match(/where\b/y) === undefined) throw new ArgumentError('OBTAIN needs "where"');
  const conds: ObtainCondition[] = [];
  do {
    s.skipBlanks();
    let condName: string | undefined;
    if (!s.peekQuote()) {
      condName = s.ident('a condition name or a quoted condition');
      s.skipBlanks();
      if (s.match(/:/y) === undefined) throw new ArgumentError('OBTAIN condition names are followed by ":"');
      s.skipBlanks();
    }
    const expr = s.quoted('a quoted condition');
    conds.push(condName === undefined ? { expr } : { name: condName, expr });
    s.skipBlanks();
  } while (s.match(/and\b/y) !== undefined);
  s.expectEnd('OBTAIN');
  return type === undefined ? { name: 'OBTAIN', vars, conds } : { name: 'OBTAIN', vars, type, conds };
}

class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return coqTrim(this.text.slice(this.pos)) === '';
  }
  atBlank(): boolean {
    return BLANK.test(this.text[this.pos] ?? '');
  }
  skipBlanks(): void {
    this.match(BLANKS);
  }
  lookingAt(re: RegExp): boolean {
    re.lastIndex = this.pos;
    return re.test(this.text);
  }
  match(re: RegExp): string | undefined {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (!m) return undefined;
    this.pos = re.lastIndex;
    return m[0];
  }
  peekQuote(): boolean {
    return this.lookingAt(/"|\\<open>|‹/y);
  }
  ident(what: string): string {
    const id = this.match(IDENT);
    if (id === undefined) throw new ArgumentError(`expected ${what}`);
    return id;
  }
  ruleName(): string {
    // Rule names may carry a direction or position suffix for backends that use one (eq: `name<-`).
    const rule = this.match(RULE_NAME);
    if (rule === undefined) throw new ArgumentError('expected a rule name');
    return rule;
  }
  /** A double-quoted string (`\"` is a literal quote) or a cartouche; returns the contents. */
  quoted(what: string): string {
    let body: string;
    if (this.match(/"/y) !== undefined) {
      let out = '';
      for (;;) {
        const c = this.text[this.pos];
        if (c === undefined) throw new ArgumentError('unclosed quote');
        this.pos++;
        if (c === '"') break;
        if (c === '\\' && this.text[this.pos] === '"') {
          out += '"';
          this.pos++;
        } else out += c;
      }
      body = out;
    } else if (this.match(/\\<open>/y) !== undefined) {
      body = this.cartouche('\\<open>', '\\<close>');
    } else if (this.match(/‹/y) !== undefined) {
      body = this.cartouche('‹', '›');
    } else {
      throw new ArgumentError(`expected ${what}`);
    }
    this.skipBlanks();
    if (CONTROL.test(body)) throw new ArgumentError('control character in term');
    if (body.trim() === '') throw new ArgumentError(`empty ${what.replace(/^an? /, '')}`);
    return body;
  }
  private cartouche(open: string, close: string): string {
    let depth = 1;
    const start = this.pos;
    while (this.pos < this.text.length) {
      if (this.text.startsWith(open, this.pos)) {
        depth++;
        this.pos += open.length;
      } else if (this.text.startsWith(close, this.pos)) {
        depth--;
        if (depth === 0) {
          const body = this.text.slice(start, this.pos);
          this.pos += close.length;
          return body;
        }
        this.pos += close.length;
      } else this.pos++;
    }
    throw new ArgumentError('unclosed cartouche');
  }
  rest(): string {
    const rest = coqTrim(this.text.slice(this.pos));
    this.pos = this.text.length;
    if (CONTROL.test(rest)) throw new ArgumentError('control character in argument');
    return rest;
  }
  expectEnd(name: string): void {
    this.skipBlanks();
    if (!this.atEnd()) throw new ArgumentError(`unexpected text after ${name}: ${clip(coqTrim(this.text.slice(this.pos)))}`);
  }
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
