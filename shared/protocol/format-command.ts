import { formatQuery } from './format-query.ts';
import { quoteArgument as quote } from './quote-argument.ts';
import { QUERY_NAMES } from './shell-command.ts';
import type { QueryCommand, ShellCommand } from './shell-command.ts';
import { takesNoArguments } from './commands.ts';

/** How a command is written for whom. */
export interface FormatOptions {
  /**
   * For a process that parses requests itself, one request per line (the external backend): line breaks
   * in any text (PRELUDE, DEFINE, GOAL, HAVE, a tactic…) become blanks, and CRUSH's rules are separated by blanks, as seed 000
   * writes them. Without it, the text is kept exactly and rules are separated by commas (Arbor's own
   * parser reads both).
   */
  wire?: boolean;
}

/**
 * A command as one protocol request (without a channel) that `parseRequest` reads back as the same value:
 * how a typed command is shown (the derivation's `by …` labels) without keeping the text it came from,
 * and, with `wire`, what the external backend sends its process.
 */
export function formatCommand(c: ShellCommand, options: FormatOptions = {}): string {
  const request = formatRequest(c, options);
  // Requests are lines: a process reading them one per line must not see a line break anywhere (a GOAL's,
  // a HAVE's or a tactic's text as much as a DEFINE's), nor a lone CR, which the parser refuses.
  return options.wire ? request.replace(/[\r\n]+/g, ' ') : request;
}

function formatRequest(c: ShellCommand, options: FormatOptions): string {
  if (takesNoArguments(c.name)) return c.name;
  switch (c.name) {
    case 'GOAL': return c.theoremName === undefined ? `GOAL ${quote(c.expr)}` : `GOAL ${c.theoremName} ${quote(c.expr)}`;
    case 'HAVE': return c.hypName === undefined ? `HAVE ${quote(c.expr)}` : `HAVE ${c.hypName} ${quote(c.expr)}`;
    case 'OBTAIN': {
      const type = c.type === undefined ? '' : ` :: ${quote(c.type)}`;
      const conds = c.conds.map((k) => (k.name === undefined ? quote(k.expr) : `${k.name}: ${quote(k.expr)}`)).join(' and ');
      return `OBTAIN ${c.vars.join(' ')}${type} where ${conds}`;
    }
    case 'CRUSH': return c.rules.length === 0 ? 'CRUSH' : `CRUSH ${c.rules.join(options.wire ? ' ' : ', ')}`;
    case 'HAMMER': return c.timeoutSeconds === undefined ? 'HAMMER' : `HAMMER ${c.timeoutSeconds}`;
    case 'RULE': return `RULE ${c.rule}`;
    case 'UNFOLD': return `UNFOLD ${c.rule}`;
    case 'APPLY': return `APPLY ${c.tactic}`;
    case 'LET': return `LET ${c.abbrev} = ${quote(c.term)}`;
    case 'PRINT_MODE': return `PRINT_MODE ${c.mode}`;
    case 'REVERT': return `REVERT ${c.step}`;
    case 'PRELUDE': return c.environment === undefined ? `PRELUDE ${quote(c.text)}` : `PRELUDE ${c.environment}${c.text === '' ? '' : ` ${quote(c.text)}`}`;
    case 'DEFINE': return c.proofLocal ? `DEFINE ${c.text}` : `DEFINE ${quote(c.text)}`;
    default:
      if (QUERY_NAMES.has(c.name)) return formatQuery(c as QueryCommand);
      // Minilang's commands keep their arguments in Minilang's own syntax.
      return 'args' in c && c.args !== '' ? `${c.name} ${c.args}` : c.name;
  }
}
