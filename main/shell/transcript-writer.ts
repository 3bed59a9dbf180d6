import { createWriteStream } from 'node:fs';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';

/** The events a transcript holds (a shell's, or an agent's port's: they agree). */
export type TranscriptEvent =
  | { kind: 'request'; channel: number; text: string; time: number }
  | { kind: 'response'; response: ShellResponse; time: number };

/**
 * Appends every request and response of a shell (or those `keep` keeps) to a JSON-lines file, for replay in the workbench:
 * `{"time":…,"channel":n,"request":"…"}` and `{"time":…,"response":{…}}`.
 */
export function recordTranscript(shell: { onEvent(listener: (event: TranscriptEvent | { kind: 'channels' }) => void): () => void }, file: string, keep: (event: TranscriptEvent) => boolean = () => true): { close(): Promise<void> } {
  const stream = createWriteStream(file, { flags: 'a' });
  const unsubscribe = shell.onEvent((event) => {
    if ((event.kind === 'request' || event.kind === 'response') && !keep(event)) return;
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
