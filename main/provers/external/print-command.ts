import { quoteArgument } from '../../../shared/protocol/quote-argument.ts';
import type { ShellCommand } from '../../../shared/protocol/shell-command.ts';
import type { ChannelCommandName } from '../../../shared/protocol/commands.ts';

/**
 * Writes a parsed command back as one request line of the channel protocol (seed 000), for a process that
 * parses it itself (the `external` backend). Terms go in double quotes, or in a cartouche when they contain a quote (Isabelle's own
 * syntax, which every seed-000 parser reads); `\"` is the last resort. No channel prefix: each Arbor
 * channel has its own process and speaks on its channel 0.
 */
export function printCommand(command: Exclude<ShellCommand, { name: ChannelCommandName }>): string {
  switch (command.name) {
    case 'GOAL': return command.theoremName !== undefined ? `GOAL ${command.theoremName} ${quote(command.expr)}` : `GOAL ${quote(command.expr)}`;
    case 'END':
    case 'NEXT':
    case 'STATE':
    case 'SCRIPT': return command.name;
    case 'CRUSH': return command.rules.length > 0 ? `CRUSH ${command.rules.join(' ')}` : 'CRUSH';
    case 'HAVE': return command.hypName !== undefined ? `HAVE ${command.hypName} ${quote(command.expr)}` : `HAVE ${quote(command.expr)}`;
    case 'OBTAIN': {
      const type = command.type !== undefined ? ` :: ${quote(command.type)}` : '';
      const conds = command.conds.map((c) => (c.name !== undefined ? `${c.name}: ${quote(c.expr)}` : quote(c.expr))).join(' and ');
      return `OBTAIN ${command.vars.join(' ')}${type} where ${conds}`;
    }
    case 'HAMMER': return command.timeoutSeconds !== undefined ? `HAMMER ${command.timeoutSeconds}` : 'HAMMER';
    case 'RULE': return `RULE ${command.rule}`;
    case 'UNFOLD': return `UNFOLD ${command.rule}`;
    case 'APPLY': return `APPLY ${command.tactic}`;
    case 'LET': return `LET ${command.abbrev} = ${quote(command.term)}`;
    case 'PRINT_MODE': return `PRINT_MODE ${command.mode}`;
    case 'REVERT': return `REVERT ${command.step}`;
    case 'PRELUDE': return `PRELUDE ${quote(command.text.replace(/[\r\n]+/g, ' '))}`;
    case 'DEFINE': return command.proofLocal ? `DEFINE ${command.text}` : `DEFINE ${quote(command.text.replace(/[\r\n]+/g, ' '))}`;
    case 'SEARCH': return `SEARCH ${quote(command.pattern)}`;
    case 'CHECK': return `CHECK ${quote(command.term)}`;
    case 'ABOUT':
    case 'PRINT':
    case 'LOCATE': return `${command.name} ${command.ident}`;
    default: return command.args === '' ? command.name : `${command.name} ${command.args}`;
  }
}

/** Quoting is the protocol's one rule (shared/protocol/quote-argument.ts). */
export const quote = quoteArgument;
