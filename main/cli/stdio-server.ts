import type { Readable, Writable } from 'node:stream';
import { LineSplitter } from '../../shared/protocol/line-splitter.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { Shell } from '../shell/shell.ts';

/** Past this many unanswered requests the server stops reading its input until the shell catches up. */
const HIGH_WATER = 2_000;
const LOW_WATER = 1_000;

/**
 * Serves the channel protocol on a byte stream: requests in, one JSON line per response out, as soon as
 * each is ready (responses of one channel in request order: the shell resolves them in that order). A
 * client that floods requests faster than they are answered is slowed down, not buffered without bound:
 * reading pauses above HIGH_WATER waiting requests. Resolves when the input has ended and every response
 * has been written.
 */
export async function serveStdio(shell: Shell, input: Readable, output: Writable, maxLineLength = 1 << 20): Promise<void> {
  const splitter = new LineSplitter(maxLineLength);
  const pending = new Set<Promise<unknown>>();
  const write = (response: ShellResponse): void => {
    output.write(`${JSON.stringify(response)}\n`);
  };
  const track = (p: Promise<ShellResponse>): void => {
    const done = p.then(write).finally(() => pending.delete(done));
    pending.add(done);
  };
  const handle = (lines: ReturnType<LineSplitter['push']>): void => {
    for (const line of lines) {
      if (line.overlongLength !== undefined) track(shell.rejectOverlong(line.overlongLength, line.text.slice(0, 64)));
      else shell.submitLine(line.text).forEach(track);
    }
  };
  input.setEncoding('utf8');
  for await (const chunk of input) {
    handle(splitter.push(chunk as string));
    if (shell.queued() > HIGH_WATER) await shell.drained(LOW_WATER);
  }
  handle(splitter.end());
  while (pending.size > 0) await Promise.all([...pending]);
}
