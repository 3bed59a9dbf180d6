import { quoteArgument } from '../../shared/protocol/quote-argument.ts';
import type { ShellCommand } from '../../shared/protocol/shell-command.ts';
import { ToolError } from './tool-error.ts';

/** What `check_term_validity` checks: a proposition (`assert (P).`) or any term (`n + 0`). */
export type TermCheck = { kind: 'assertion'; prop: string } | { kind: 'term'; term: string };

// Vernacular commands an agent could try to run through a term (BRIEF §3: injection is a parse error).
const VERNACULAR = /^(Load|Redirect|Cd|Declare|Require|Import|Export|Set|Unset|Drop|Quit|Time|Timeout|Fail|Extraction|Print|Check|Eval|Compute|Search|Locate|Add|Remove|Back|BackTo|Reset|Abort|Admitted|Qed|Defined|Proof|Lemma|Theorem|Definition|Fixpoint|Axiom|Parameter|Ltac|Module|Section|End|Goal|Opaque|Transparent|Hint|Local|Global)\b/;

/**
 * Reads the agent's input: `assert (P).`, `assert (H : P)`, `assert P`, or a bare term. Throws
 * `injection` for anything that could end the prover's sentence or run a command, `bad_argument` when
 * nothing is left.
 */
export function readTermInput(input: string): TermCheck {
  let text = input.trim();
  const assertion = /^assert\s*/.exec(text);
  if (assertion) {
    text = text.slice(assertion[0].length).trim();
    if (text.endsWith('.') && !text.endsWith('..')) text = text.slice(0, -1).trim();
    if (text.startsWith('(') && closingParen(text) === text.length - 1) text = text.slice(1, -1).trim();
    const named = /^([A-Za-z_][\w']*)\s*:(?!=)\s*/.exec(text);
    if (named) text = text.slice(named[0].length);
    checkTermText(text);
    return { kind: 'assertion', prop: text };
  }
  if (text.endsWith('.') && !text.endsWith('..')) text = text.slice(0, -1).trim();
  checkTermText(text);
  return { kind: 'term', term: text };
}

/**
 * Refuses a term that could end a Coq sentence (`. ` or a final `.`), open a comment, close a bracket it
 * did not open, carry a control character, or start a vernacular command. These are `injection`
 * (`parse error: …`); an empty term is `bad_argument`.
 */
export function checkTermText(text: string): void {
  const injection = (why: string): ToolError => new ToolError('injection', `parse error: ${why}`);
  if (text.trim() === '') throw new ToolError('bad_argument', 'empty term');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text)) throw injection('control character or line break in term');
  if (/\.(\s|$)/.test(text)) throw injection("term contains a sentence end ('.')");
  if (text.includes('(*') || text.includes('*)')) throw injection('term contains a comment');
  if (text.endsWith('\\')) throw injection('term ends with a backslash');
  if (VERNACULAR.test(text.trim())) throw injection('term starts with a vernacular command');
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (const c of text) {
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (c in pairs) {
      if (stack.pop() !== pairs[c]) throw injection(`unbalanced '${c}'`);
    }
  }
  if (stack.length > 0) throw injection(`unclosed '${stack[stack.length - 1]}'`);
}

/** A term as a protocol quoted string: `"` becomes `\"` (the request grammar's only escape). */
export function quoteTerm(text: string): string {
  return quoteArgument(text);
}

/** A hypothesis or fact name Arbor can send (`HAVE name "…"`). */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_']*$/.test(name);
}

function closingParen(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Checks every term and tactic argument of a command an agent sends (run_command, try_commands) the
 * way `checkTermText` checks terms, so an injection attempt answers `injection` before reaching the
 * prover (whose own check would answer `parse error` too). A PRELUDE is the backend's policy to judge.
 */
export function checkCommandArguments(command: ShellCommand): void {
  const texts: string[] = [];
  switch (command.name) {
    case 'GOAL': texts.push(command.expr); break;
    case 'HAVE': texts.push(command.expr); break;
    case 'OBTAIN': texts.push(...command.conds.map((c) => c.expr), ...(command.type !== undefined ? [command.type] : [])); break;
    case 'LET': texts.push(command.term); break;
    case 'RULE':
    case 'UNFOLD': texts.push(command.rule); break;
    case 'APPLY': texts.push(command.tactic); break;
    case 'CRUSH': texts.push(...command.rules); break;
    default: break;
  }
  texts.forEach(checkTermText);
}
