import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { descendants, listProcesses } from '../process/process-tree.ts';
import { ShellProcess } from './shell-process.ts';

/**
 * Every process Arbor starts dies with it: after SIGTERM, SIGINT and even SIGKILL of the Arbor process,
 * nothing it started (provers, CoqHammer's ATP workers, the reaper) is left running. Real processes only.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** What is still alive of the given processes (by pid) and process groups. */
const survivors = (pids: number[], pgids: number[]): string[] =>
  listProcesses().filter((p) => pids.includes(p.pid) || pgids.includes(p.pgid)).map((p) => `${p.pid} ${p.name}`);

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('no orphans (real arbor-shell, coqidetop, CoqHammer)', () => {
  for (const signal of ['SIGKILL', 'SIGTERM', 'SIGINT'] as const) {
    it(`${signal} of arbor-shell during a long HAMMER leaves no process behind`, async () => {
      const shell = new ShellProcess(['--timeout', '60']);
      const pid = shell.child.pid as number;
      // Unprovable, over an abstract type (no counterexample search, no induction): the cheap stages fail at
      // once and CoqHammer's ATPs search an infinite clause set until their limit when the signal comes.
      await shell.request('GOAL "forall (A : Type) (P Q : A -> Prop) (f : A -> A), (forall x, P x -> Q (f x)) -> (forall x, Q x -> P (f (f x))) -> forall x, Q x -> Q (f x)"', 0);
      shell.write('HAMMER 60\n');
      // Wait until the hammer is at work: an ATP process (E, Z3, CVC4) forked below the prover.
      const busy = await until(() => descendants(pid).some((p) => /^(eprover|z3|cvc4|vampire)/.test(p.name)), 45_000);
      const tree = descendants(pid);
      expect(busy, JSON.stringify(tree)).toBe(true);
      process.stderr.write(`[shutdown] ${signal}: ${tree.map((p) => p.name).join(' ')}\n`);
      const pids = tree.map((p) => p.pid);
      // A child caught between its fork and its own process group (a warm-pool prover starting) is still in
      // arbor-shell's group, which is this test runner's: that group is not Arbor's to empty.
      const ours = listProcesses().find((p) => p.pid === process.pid)?.pgid;
      const pgids = [...new Set(tree.map((p) => p.pgid))].filter((g) => g !== process.pid && g !== ours);
      shell.child.kill(signal);
      const clean = await until(() => survivors(pids, pgids).length === 0, 20_000);
      expect(clean, survivors(pids, pgids).join(', ')).toBe(true);
    }, 90_000);
  }

  it('SIGTERM to `npm run web` shuts the workbench down completely', async () => {
    const npm = spawn('npm', ['run', 'web', '--', '--no-build', '--port', '0'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ARBOR_USER_DIR: `${REPO}.tmp/shutdown-user` } });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    const up = await until(() => /Arbor workbench: http/.test(out), 60_000);
    expect(up, out).toBe(true);
    const tree = descendants(npm.pid as number);
    expect(tree.some((p) => /coqidetop/.test(p.name))).toBe(true);
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    npm.kill('SIGTERM');
    await exited;
    const pids = tree.map((p) => p.pid);
    const clean = await until(() => survivors(pids, []).length === 0, 20_000);
    expect(clean, survivors(pids, []).join(', ')).toBe(true);
  }, 120_000);
});

describe('provers work in directories of their own', () => {
  it('lia and CoqHammer leave nothing in the directory arbor-shell was started in', async () => {
    const { mkdtemp, readdir, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const cwd = await mkdtemp(join(tmpdir(), 'arbor-cwd-'));
    try {
      const run = spawn(process.execPath, [`${REPO}bin/arbor-shell.js`], { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      run.stdout.on('data', (c: Buffer) => { out += c.toString(); });
      run.stdin.end('GOAL "forall n m : nat, n + m = m + n"\nAPPLY (intros; lia)\nEND\n');
      await new Promise((resolve) => run.on('exit', resolve));
      expect(out.trim().split('\n')).toHaveLength(3);
      expect(await readdir(cwd)).toEqual([]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
