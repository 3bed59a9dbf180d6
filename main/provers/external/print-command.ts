import { formatCommand } from '../../../shared/protocol/format-command.ts';
import type { ShellCommand } from '../../../shared/protocol/shell-command.ts';
import type { ChannelCommandName } from '../../../shared/protocol/commands.ts';

/**
 * Writes a parsed command back as one request line of the channel protocol (seed 000), for a process that
 * parses it itself (the `external` backend): the one formatter's `wire` form (one line, CRUSH's rules
 * separated by blanks). No channel prefix: each Arbor channel has its own process and speaks on its channel 0.
 */
export function printCommand(command: Exclude<ShellCommand, { name: ChannelCommandName }>): string {
  return formatCommand(command, { wire: true });
}
