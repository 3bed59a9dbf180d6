import { COMMAND_NAMES, commandSpec, type CommandDoc, type CommandName } from '../protocol/commands.ts';

export type { CommandDoc };

/** Hover and completion documentation for every shell command, from the one command table (shared/protocol/commands.ts). */
export const COMMAND_DOCS: Readonly<Record<CommandName, CommandDoc>> = Object.fromEntries(COMMAND_NAMES.map((n) => [n, commandSpec(n).doc])) as Record<CommandName, CommandDoc>;
