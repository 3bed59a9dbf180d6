import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { ForkTryOutcome, ForkTrySpec } from '../../shared/protocol/fork-try.ts';

/** What an agent session sees of the shell's traffic (the shell's and the web host's events agree). */
export type PortEvent =
  | { kind: 'request'; channel: number; text: string; time: number }
  | { kind: 'response'; response: ShellResponse; time: number };

/**
 * The agent session's view of a shell: an in-process `Shell` or a running workbench reached over its
 * WebSocket API (`--attach`). Every request goes through the shell, so the workbench sees what agents do.
 */
export interface ShellPort {
  /** Submits one request line; resolves with its responses in request order. */
  submit(line: string): Promise<ShellResponse[]>;
  /** The channel's tree with statuses (undefined before the first GOAL or for an unknown channel). */
  tree(channel: number): Promise<TreeView | undefined>;
  /** The channel's current step, as the shell counts it (undefined where the port cannot tell). */
  step?(channel: number): Promise<number | undefined>;
  onEvent(listener: (event: PortEvent) => void): () => void;
  /**
   * Runs a try on a fork of the channel's state (a state handle on a warm prover, state-forks.ts, through
   * `runForkTry`); the channel never moves. In-process it calls the shell's forks; attached, the workbench
   * API's `fork.try`, which runs the same code. Absent, or answering `unavailable`, where the channel cannot
   * fork (a pass-through backend): scratch channels replay the script instead.
   */
  tryOnFork?(channel: number, spec: ForkTrySpec): Promise<ForkTryOutcome>;
  close(): Promise<void>;
}
