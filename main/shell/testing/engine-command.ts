import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import { managesChannel } from '../../../shared/protocol/commands.ts';
import type { EngineCommand } from '../channel-engine.ts';

/** One request line as an engine command, for tests that drive an engine directly; throws on anything else. */
export function engineCommand(text: string): EngineCommand {
  const parsed = parseRequest(text);
  if ('error' in parsed) throw new Error(parsed.error);
  const { command } = parsed;
  if (managesChannel(command)) throw new Error('not an engine command');
  return command;
}
