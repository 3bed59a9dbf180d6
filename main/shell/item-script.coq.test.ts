import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../cli/shell-process.ts';

const run = promisify(execFile);

/**
 * Issue 21 attack: the finishing END answers with that item's script only. Each must still pass `coqc`
 * alone when the proof reaches an earlier theorem indirectly: through a hint, a notation, an Ltac, a
 * DEFINE'd abbreviation, a name that is a prefix of another, a primed name. Real arbor-shell, coqidetop
 * and coqc.
 */
describe('the finishing END\'s script checks alone (real coqidetop and coqc)', () => {
  let shell: ShellProcess;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'arbor-item-'));
    shell = new ShellProcess(['--timeout', '30']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });

  const ok = async (line: string): Promise<ShellResponse> => {
    const r = await shell.request(line);
    expect(r.ERR, line).toBe('');
    return r;
  };
  /** Proves GOAL with the steps and returns the finishing END's SCRIPT. */
  const prove = async (goal: string, ...steps: string[]): Promise<string> => {
    await ok(goal);
    for (const s of steps) await ok(s);
    const end = await ok('END');
    expect(typeof end.SCRIPT, goal).toBe('string');
    return end.SCRIPT as string;
  };
  const coqc = async (name: string, script: string, check: string): Promise<string> => {
    const file = join(dir, `${name}.v`);
    await writeFile(file, `${script}\n${check}\n`);
    const { stdout } = await run('coqc', ['-q', file], { cwd: dir, timeout: 120_000 });
    return stdout;
  };

  it('through a Hint Resolve, a notation, an Ltac, primes and prefixes', async () => {
    await ok('DEFINE "Definition twice (n : nat) : nat := n + n."');
    await prove('GOAL twice_eq "forall n, twice n = 2 * n"', 'APPLY (intros n; unfold twice; lia)');
    await prove('GOAL le_twice "forall n, n <= twice n"', 'APPLY (intros n; unfold twice; lia)');
    // Reached only through automation: auto finds le_twice as a hint.
    await ok('DEFINE "Global Hint Resolve le_twice : core."');
    const viaHint = await prove('GOAL by_hint "forall m, m <= twice m"', 'APPLY (intros m; auto)');
    expect(viaHint).not.toContain('Theorem twice_eq');
    expect(await coqc('by_hint', viaHint, 'Print Assumptions by_hint.')).toContain('Closed under the global context');

    // Reached only through a notation and an Ltac that name it.
    await ok('DEFINE "Notation twice_rule := twice_eq."');
    await ok('DEFINE "Ltac tw := rewrite ?twice_eq."');
    const viaNotation = await prove('GOAL by_notation "twice 3 = 6"', 'APPLY (rewrite twice_rule; reflexivity)');
    expect(await coqc('by_notation', viaNotation, 'Print Assumptions by_notation.')).toContain('Closed under the global context');
    const viaLtac = await prove('GOAL by_ltac "forall k, twice k = k * 2"', 'APPLY (intros k; tw; lia)');
    expect(await coqc('by_ltac', viaLtac, 'Print Assumptions by_ltac.')).toContain('Closed under the global context');

    // Primes and prefixes: p, p', p_ext; the last uses p' only, then p_ext only.
    await prove('GOAL p "1 = 1"', 'APPLY reflexivity');
    await prove('GOAL p\' "2 = 2"', 'APPLY reflexivity');
    await prove('GOAL p_ext "3 = 3"', 'APPLY reflexivity');
    const usesPrime = await prove('GOAL q "2 = 2 /\\ True"', 'APPLY (split; [exact p\' | exact I])');
    expect(usesPrime).toContain('Theorem p\' :');
    expect(usesPrime).not.toMatch(/Theorem p :|Theorem p_ext :/);
    expect(await coqc('q', usesPrime, 'Print Assumptions q.')).toContain('Closed under the global context');
    const usesExt = await prove('GOAL q_ext "3 = 3"', 'APPLY (exact p_ext)');
    expect(usesExt).not.toMatch(/Theorem p :|Theorem p' :/);
    expect(await coqc('q_ext', usesExt, 'Print Assumptions q_ext.')).toContain('Closed under the global context');

    // An unnamed goal's generated name, used by a later proof.
    await prove('GOAL "4 = 4"', 'APPLY reflexivity');
    const usesGenerated = await prove('GOAL r "4 = 4"', 'APPLY (exact arbor_goal)');
    expect(await coqc('r', usesGenerated, 'Print Assumptions r.')).toContain('Closed under the global context');

    // A chain: by_chain names by_hint, which needs le_twice only through the hint DEFINE.
    const chain = await prove('GOAL by_chain "forall m, m <= twice m"', 'APPLY (exact by_hint)');
    expect(chain).toContain('Theorem by_hint');
    expect(await coqc('by_chain', chain, 'Print Assumptions by_chain.')).toContain('Closed under the global context');

    // The whole document still checks too.
    const whole = await ok('SCRIPT');
    expect(await coqc('whole', whole.RESPONSE as string, 'Print Assumptions by_chain.')).toContain('Closed under the global context');
  }, 600_000);
});
