import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';
import { runProcess } from '../../process/process-manager.ts';

/**
 * A proof whose tactics closed every goal but whose `Qed` the kernel refused is not claimed as `Qed` in
 * SCRIPT: it ends `Admitted.` with Coq's reason in a comment, so `coqc` accepts the script and nothing in it
 * says the theorem was proved. Real arbor-shell, coqidetop and coqc.
 */
describe('SCRIPT after a Qed the kernel refused (real Coq)', () => {
  it('ends that proof with Admitted and the reason; coqc accepts the script', { timeout: 240_000 }, async () => {
    const shell = new ShellProcess(['--timeout', '10', '--pool', '0']);
    const dir = await mkdtemp(join(tmpdir(), 'arbor-refused-'));
    try {
      const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      const say = (line: string): Promise<ShellResponse> => shell.request(`${ch} ${line}`, ch);
      expect((await say('GOAL wrong "1 = 2"')).ERR).toBe('');
      // The tactic skips the type check; the kernel's check at Qed refuses the term.
      expect((await say('APPLY (exact_no_check (@eq_refl nat 1))')).ERR).toBe('');
      expect((await say('END')).ERR).toMatch(/kernel did not accept/);
      const script = String((await say('SCRIPT')).RESPONSE);
      expect(script).toMatch(/\(\* Coq's kernel refused Qed: [^\n]* \*\)\nAdmitted\.\n$/);
      expect(script).not.toMatch(/^Qed\./m);
      const file = join(dir, 'refused.v');
      await writeFile(file, script);
      const coqc = await runProcess({ program: 'coqc', args: [file], cwd: dir, timeoutMs: 120_000, sandbox: false });
      expect(coqc.exitCode, coqc.stderr || coqc.stdout).toBe(0);
      // Once the proof changes, the refusal no longer describes it.
      expect((await say('GOAL right "1 = 1"')).ERR).toBe('');
      expect((await say('APPLY reflexivity')).ERR).toBe('');
      expect((await say('END')).ERR).toBe('');
      const after = String((await say('SCRIPT')).RESPONSE);
      expect(after).toMatch(/Theorem right : \(1 = 1\)\.\nProof\.\n {2}\(reflexivity\)\.\nQed\./);
      expect(after).not.toMatch(/kernel refused/);
    } finally {
      await shell.end();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
