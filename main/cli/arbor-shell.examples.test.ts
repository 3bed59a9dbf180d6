import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { ShellProcess } from './shell-process.ts';

const run = promisify(execFile);
const examplesDir = fileURLToPath(new URL('../../resources/examples/', import.meta.url));
const examples = (await readdir(examplesDir)).filter((f) => f.endsWith('.arbor')).sort();

/** Checks a reproduction script with coqc alone and returns what `Print Assumptions` says. */
async function coqcAssumptions(script: string, dir: string, name: string): Promise<string> {
  const file = join(dir, `example_${name.replace(/[^A-Za-z0-9]/g, '_')}.v`);
  // A document may prove several theorems: every one of them must be closed.
  const theorems = [...script.matchAll(/^Theorem (\S+) :/gm)].map((m) => m[1] as string);
  await writeFile(file, `${script}\n${theorems.map((t) => `Print Assumptions ${t}.`).join('\n')}\n`);
  const { stdout } = await run('coqc', ['-q', file], { cwd: dir, timeout: 120_000 });
  return stdout;
}

describe('resources/examples through arbor-shell (real coqidetop)', () => {
  let shell: ShellProcess;
  let dir: string;
  beforeAll(async () => {
    shell = new ShellProcess(['--timeout', '20']);
    dir = await mkdtemp(join(tmpdir(), 'arbor-examples-'));
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });

  it('has at least 15 examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
  });

  for (const example of examples) {
    it(`${example} runs to the end and its SCRIPT passes coqc without axioms`, async () => {
      const created = await shell.request('NEW_CHANNEL', 0);
      const channel = (created.RESPONSE as { ID: number }).ID;
      const text = await readFile(join(examplesDir, example), 'utf8');
      let last: ShellResponse | undefined;
      for (const [lineNo, line] of text.split('\n').entries()) {
        for (const request of splitRequests(line)) {
          last = await shell.request(`${channel} ${request.text}`, channel);
          expect(last.ERR, `${example}:${lineNo + 1}: ${request.text}`).toBe('');
        }
      }
      expect(last?.RESPONSE).toEqual({ ctxt: { vars: [], hyps: [] }, goal: [] });
      const script = last?.SCRIPT ?? '';
      expect(script).not.toMatch(/\bhammer\b|\badmit\b|Admitted/);
      const printed = await coqcAssumptions(script, dir, example);
      expect(printed.match(/Closed under the global context/g)?.length).toBe([...script.matchAll(/^Theorem /gm)].length);
      await shell.request(`${channel} RELEASE_CHANNEL`, channel);
    }, 180_000);
  }
});
