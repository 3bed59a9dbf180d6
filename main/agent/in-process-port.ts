import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { Shell } from '../shell/shell.ts';
import { forksOf } from '../shell/state-forks.ts';
import { runForkTry } from '../shell/fork-try.ts';
import type { PortEvent, ShellPort } from './shell-port.ts';

/**
 * A `ShellPort` over a `Shell` in this process (`arbor-mcp` without `--attach`, or the workbench's own).
 * `submit` replaces the direct route where requests must pass through the host's document sessions.
 * Reads go through the shell's typed API; `submit` stays a protocol line, because what an agent sends is
 * one (an MCP tool's text), and the same port runs over the WebSocket when attached.
 */
export function inProcessPort(shell: Shell, submit?: (line: string) => Promise<ShellResponse[]>): ShellPort {
  return {
    submit: submit ?? ((line) => Promise.all(shell.submitLine(line))),
    tree: async (channel) => shell.tree(channel),
    step: async (channel) => shell.channelStatus(channel)?.step,
    onEvent: (listener: (event: PortEvent) => void) => shell.onEvent((event) => {
      if (event.kind !== 'channels') listener(event);
    }),
    tryOnFork: (channel, spec) => runForkTry(forksOf(shell), channel, spec),
    // The shell belongs to whoever created it; the port only stops listening.
    close: async () => undefined,
  };
}
