import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineProcess, LineProcessExited, MAX_LINE_CHARS } from './line-process.ts';

/**
 * Floods from a line-based prover process (Pantograph's REPL, an external engine): a very long answer is read
 * in linear time, and a line past the limit stops the process instead of filling Arbor's memory. The
 * processes are shell scripts (TEST DOUBLES of a REPL that prints too much).
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-flood-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function flooder(name: string, chars: number, newline: boolean): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\necho ready.\nhead -c ${chars} /dev/zero | tr '\\0' 'x'\n${newline ? 'echo\n' : ''}exec sleep 30\n`);
  await chmod(file, 0o755);
  return file;
}

describe('attack: a REPL that floods its stdout', () => {
  it('a 40 MB answer line arrives whole and promptly (no rescan of the line with every chunk)', async () => {
    const p = new LineProcess({ command: await flooder('long.sh', 40_000_000, true), args: [] });
    try {
      expect(await p.nextLine(10_000)).toBe('ready.');
      const started = Date.now();
      const line = await p.nextLine(30_000);
      expect(line.length).toBe(40_000_000);
      // Before: about 20 s on this machine (each 64 KiB chunk rescanned the whole line so far).
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await p.kill();
    }
  }, 60_000);

  it('a line past the limit without a line break: the process is stopped and the reader told why', async () => {
    const p = new LineProcess({ command: await flooder('endless.sh', MAX_LINE_CHARS + 5_000_000, false), args: [] });
    try {
      expect(await p.nextLine(10_000)).toBe('ready.');
      const err = await p.nextLine(30_000).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LineProcessExited);
      expect((err as LineProcessExited).message).toMatch(/^printed a line longer than \d+ characters; stopped/);
      expect(p.alive).toBe(false);
    } finally {
      await p.kill();
    }
  }, 60_000);
});
