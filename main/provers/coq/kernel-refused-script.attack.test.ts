import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { runProcess } from '../../process/process-manager.ts';
import { createProverEngineFactory, loadBackend } from '../../supervisor/engine-factory.ts';
import { Shell } from '../../shell/shell.ts';
import { forksOf } from '../../shell/state-forks.ts';
import { useRealShell, useScratchDir } from './testing/real-shell.ts';

/**
 * Attacks on SCRIPT after a Qed the kernel refused (kernel-refused-script.test.ts shows the plain case):
 * Coq's message carries text the comment must hold (`(*)`, quotes, unicode), and the channel moves on after
 * the refusal (LET, PRINT_MODE) without touching the proof. The script must never claim `Qed.` for the
 * refused proof, and `coqc` must accept it. Real arbor-shell, coqidetop and coqc.
 */
const { channel } = useRealShell(['--timeout', '10', '--pool', '0']);
const scratch = useScratchDir('arbor-refused-attack-');

/** coqc on the script: its exit code and what it said. */
const coqc = async (name: string, script: string): Promise<{ code: number | null; out: string }> => {
  const dir = scratch();
  const file = join(dir, `${name}.v`);
  await writeFile(file, script);
  const r = await runProcess({ program: 'coqc', args: [file], cwd: dir, timeoutMs: 120_000, sandbox: false });
  return { code: r.exitCode, out: r.stderr || r.stdout };
};

/** A proof whose tactics close the goal and whose Qed the kernel refuses. */
const refused = async (say: (line: string) => Promise<ShellResponse>, name: string, goal: string, term: string): Promise<void> => {
  expect((await say(`GOAL ${name} "${goal.replace(/"/g, '\\"')}"`)).ERR).toBe('');
  expect((await say(`APPLY (exact_no_check (${term}))`)).ERR).toBe('');
  expect((await say('END')).ERR).toMatch(/kernel did not accept/);
};

describe('SCRIPT after a refused Qed: hostile messages and later requests (real Coq)', () => {
  it('a message holding `(*)` (a string in the statement) stays inside the comment; coqc accepts the script', { timeout: 240_000 }, async () => {
    const say = await channel();
    expect((await say('DEFINE "Require Import Coq.Strings.String. Open Scope string_scope."')).ERR).toBe('');
    await refused(say, 'odd', '"(*)" = "a" /\\ "*)" = "(*" /\\ "é→""x" = "b"', 'conj (@eq_refl string "a") (conj (@eq_refl string "b") (@eq_refl string "c"))');
    const script = String((await say('SCRIPT')).RESPONSE);
    expect(script).toMatch(/kernel refused Qed/);
    expect(script).not.toMatch(/^Qed\./m);
    const r = await coqc('odd', script);
    expect(r.code, `${r.out}\n${script}`).toBe(0);
  });

  for (const [what, name, request] of [
    ['LET after the refusal: the script still ends that proof Admitted, and coqc accepts it', 'wrong_let', 'LET ?x = "3"'],
    ['PRINT_MODE after the refusal: the script still ends that proof Admitted', 'wrong_mode', 'PRINT_MODE 2'],
  ] as const) {
    it(what, { timeout: 240_000 }, async () => {
      const say = await channel();
      await refused(say, name, '1 = 2', '@eq_refl nat 1');
      expect((await say(request)).ERR).toBe('');
      const script = String((await say('SCRIPT')).RESPONSE);
      expect(script).not.toMatch(/^Qed\./m);
      const r = await coqc(name, script);
      expect(r.code, `${r.out}\n${script}`).toBe(0);
    });
  }
});

describe('SCRIPT after a refused Qed: REVERT, re-do and forks (real Coq, in-process shell)', () => {
  it('a fork of the refused state, a no-op REVERT and a re-done proof each say what happened', { timeout: 240_000 }, async () => {
    const factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    const local = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    const send = async (line: string): Promise<ShellResponse> => (await Promise.all(local.submitLine(line)))[0] as ShellResponse;
    try {
      expect((await send('0 GOAL again "1 = 1"')).ERR).toBe('');
      // A try before the refusal: the channel now keeps a sibling prover that follows it (state-forks.ts).
      expect(await forksOf(local).run(0, async (fork) => (await fork.run('STATE')).ERR, { step: 1 })).toBe('');
      expect((await send('0 APPLY (exact_no_check (@eq_refl nat 2))')).ERR).toBe('');
      // The follower holds the state with every goal closed before END is asked.
      expect(await forksOf(local).run(0, async (fork) => (await fork.run('STATE')).ERR, { step: 2 })).toBe('');
      expect((await send('0 END')).ERR).toMatch(/kernel did not accept/);
      // A fork of the refused state on a sibling prover (a try from a named step): its script must not claim Qed either.
      const forked = await forksOf(local).run(0, async (fork) => String((await fork.run('SCRIPT')).RESPONSE), { step: 2 });
      expect(forked).toMatch(/kernel refused Qed/);
      expect(forked).not.toMatch(/^Qed\./m);
      // REVERT to the refused state itself changes nothing.
      expect((await send('0 REVERT 2')).ERR).toBe('');
      expect(String((await send('0 SCRIPT')).RESPONSE)).toMatch(/kernel refused Qed[^\n]*\nAdmitted\.\n$/);
      // Re-done from the GOAL with a proof the kernel takes: Qed, and no word of the old refusal.
      expect((await send('0 REVERT 1')).ERR).toBe('');
      expect((await send('0 APPLY reflexivity')).ERR).toBe('');
      expect((await send('0 END')).ERR).toBe('');
      const redone = String((await send('0 SCRIPT')).RESPONSE);
      expect(redone).toMatch(/reflexivity\)\.\nQed\.\n$/);
      expect(redone).not.toMatch(/kernel refused/);
    } finally {
      await local.close();
      await factory.dispose();
    }
  });
});
