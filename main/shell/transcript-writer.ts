import { createWriteStream } from 'node:fs';
import type { Shell, ShellEvent } from './shell.ts';

/**
 * Appends every request and response of a shell to a JSON-lines file, for replay in the workbench:
 * `{"time":…,"channel":n,"request":"…"}` and `{"time":…,"response":{…}}`.
 */
export function recordTranscript(shell: Shell, file: string): { close(): Promise<void> } {
  const stream = createWriteStream(file, { flags: 'a' });
  const unsubscribe = shell.onEvent((event: ShellEvent) => {
    if (event.kind === 'request') stream.write(`${JSON.stringify({ time: event.time, channel: event.channel, request: event.text })}\n`);
    else if (event.kind === 'response') stream.write(`${JSON.stringify({ time: event.time, response: event.response })}\n`);
  });
  return {
    close: () => {
      unsubscribe();
      return new Promise((resolve) => stream.end(resolve));
    },
  };
}
