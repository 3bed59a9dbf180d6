import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import type { EngineCommand } from '../channel-engine.ts';

/** One request line as an engine command, for tests that drive an engine directly; throws on anything else. */
export function engineCommand(text: string): EngineCommand {
  const parsed = parseRequest(text);
  if ('error' in parsed) throw new Error(parsed.error);
  const { command } = parsed;
  if (command.name === 'NEW_CHANNEL' || command.name === 'RELEASE_CHANNEL' || command.name === 'CANCEL') throw new Error('not an engine command');
  return command;
}
