import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { startIsaReplDouble } from '../provers/isabelle/test-fixtures/isa-repl-double.ts';
import type { IsaReplDouble } from '../provers/isabelle/test-fixtures/isa-repl-double.ts';
import { ShellProcess } from './shell-process.ts';

const run = promisify(execFile);

/**
 * `arbor-shell --backend isabelle` over the Isa-REPL TEST DOUBLE (Isabelle cannot be installed here; the
 * double is checked against the real Python clients in `provers/isabelle/real-client.test.ts`). Arbor starts
 * "the server" itself, through its process manager, exactly as it starts Isa-REPL's `repl_server.sh`.
 */
const TSX_LOADER = import.meta.resolve('tsx');
const root = fileURLToPath(new URL('../../', import.meta.url));
const doubleServer = fileURLToPath(new URL('../provers/isabelle/test-fixtures/isa-repl-double-server.ts', import.meta.url));
const serverCommand = `${process.execPath} --import ${TSX_LOADER} ${doubleServer}`;

const dir = mkdtempSync(join(tmpdir(), 'arbor-shell-isabelle-'));
const shells: ShellProcess[] = [];
afterEach(async () => {
  await Promise.all(shells.splice(0).map((s) => s.end()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function shell(extraEnv: NodeJS.ProcessEnv = {}, args: string[] = []): ShellProcess {
  const s = new ShellProcess(['--backend', 'isabelle', '--isabelle-server', serverCommand, '--timeout', '5', ...args], { ...process.env, ...extraEnv });
  shells.push(s);
  return s;
}

/** Whether the process still exists (it is gone once Arbor's process manager has reaped it). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const goalOf = (r: ShellResponse): unknown => (r.RESPONSE as { goal: unknown } | null)?.goal;

describe('arbor-shell --backend isabelle (Isa-REPL test double)', () => {
  it('GOAL, the seed commands in Minilang, STEP/REVERT by \\stamp/\\rollback, END with the SCRIPT', async () => {
    const s = shell();
    expect(await s.request('GOAL "A ∧ B ⟶ B ∧ A"')).toEqual({ CHANNEL: 0, RESPONSE: { ctxt: { vars: [], hyps: [] }, goal: 'A ∧ B ⟶ B ∧ A' }, ERR: '', STEP: 1 });
    const intro = await s.request('RULE impI');
    expect(intro).toMatchObject({ ERR: '', STEP: 2, RESPONSE: { ctxt: { hyps: [{ name: 'premise', expr: 'A ∧ B' }] }, goal: 'B ∧ A' } });
    // HAVE opens Minilang's block: the new goal first, then the old goal with the fact.
    const have = await s.request('HAVE h "B"');
    expect(have).toMatchObject({ ERR: '', STEP: 3 });
    expect(JSON.stringify(have.RESPONSE)).toContain('"h"');
    // REVERT 2 is \rollback arbor_2: the state of step 2 again, and the next command continues from it.
    expect(await s.request('REVERT 2')).toEqual({ ...intro, CHANNEL: 0 });
    const split = await s.request('CRUSH');
    expect(split).toMatchObject({ ERR: '', STEP: 3 });
    expect(goalOf(split)).toEqual([{ ctxt: { vars: [], hyps: [] }, goal: 'B' }, { ctxt: { vars: [], hyps: [] }, goal: 'A' }]);
    expect(await s.request('NEXT')).toMatchObject({ ERR: '', STEP: 4, RESPONSE: { goal: 'A' } });
    const end = await s.request('END');
    expect(end).toMatchObject({ ERR: '', STEP: 5, RESPONSE: { goal: [] } });
    // The script: the lemma proved by Minilang's own `min_script` over exactly the commands sent, and the
    // theorem Minilang's \conclude answered (its proof text is empty in v0.6.0, as in the real server).
    expect(end.SCRIPT).toContain('lemma arbor_goal: "A ∧ B ⟶ B ∧ A"\n  by (min_script \\<open>\n    RULE impI\n    SIMP\n    NEXT\n    END\n  \\<close>)');
    expect(end.SCRIPT).toContain("(* Minilang's \\conclude: A ∧ B ⟶ B ∧ A *)");
    expect((await s.request('SCRIPT')).RESPONSE).toBe(end.SCRIPT);
    expect(await s.request('HAVE x "A"')).toMatchObject({ RESPONSE: null, ERR: 'no goal: the proof is finished' });
  }, 60_000);

  it('OBTAIN becomes CONSIDER; INDUCT, CASE_SPLIT and proof-local DEFINE reach Minilang', async () => {
    const s = shell();
    expect(await s.request('GOAL ex "∃y. P y"')).toMatchObject({ ERR: '', STEP: 1 });
    // Minilang's CONSIDER: first prove that such a c exists, then continue with c and hc in context.
    const obtain = await s.request('OBTAIN c where hc: "Q c"');
    expect(obtain).toMatchObject({ ERR: '', STEP: 2 });
    expect(goalOf(obtain)).toEqual([
      { ctxt: { vars: [], hyps: [] }, goal: '∃c. Q c' },
      { ctxt: { vars: [{ name: 'c', type: "'a" }], hyps: [{ name: 'hc', expr: 'Q c' }] }, goal: '∃y. P y' },
    ]);
    const define = await s.request('DEFINE d where "d = c"');
    expect(define).toMatchObject({ ERR: '', STEP: 3 });
    expect(JSON.stringify(define.RESPONSE)).toContain('{"name":"d_def","expr":"d = c"}');
    expect(await s.request('DEFINE "d = c"')).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^unsupported: DEFINE/) });
    await s.request('GOAL "P (n::nat)"');
    const induct = await s.request('INDUCT n');
    expect(induct).toMatchObject({ ERR: '', STEP: 2 });
    expect(Array.isArray(goalOf(induct))).toBe(true);
    expect((goalOf(induct) as unknown[]).length).toBe(2);
    expect(await s.request('REVERT 1')).toMatchObject({ ERR: '', STEP: 1, RESPONSE: { goal: 'P (n::nat)' } });
    const cases = await s.request('CASE_SPLIT n');
    expect(cases).toMatchObject({ ERR: '', STEP: 2 });
    expect((goalOf(cases) as unknown[]).length).toBe(2);
  }, 60_000);

  it('maps Minilang\'s errors and the server\'s timeouts to stable errors; a refused text never reaches the server', async () => {
    // A server the user runs (--isabelle-address): here the double in this process, so its log can be read.
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    const s = new ShellProcess(['--backend', 'isabelle', '--isabelle-address', double.address, '--timeout', '2']);
    shells.push(s);
    try {
      await checkErrors(s, double);
    } finally {
      await s.end();
      await double.close();
    }
  }, 60_000);

  it('a server that dies is started again and the proof replayed; one that cannot start is a clear error', async () => {
    const pidFile = join(dir, 'server.pid');
    const s = shell({ ARBOR_DOUBLE_PID_FILE: pidFile });
    await s.request('GOAL "A ⟶ A ∧ A"');
    await s.request('RULE impI');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(pid, 'SIGKILL');
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000 });
    const after = await s.request('RULE conjI');
    expect(after).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^prover crashed: .*restarted at step 2$/) });
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(pid);
    expect(await s.request('RULE conjI')).toMatchObject({ ERR: '', STEP: 3 });

    const dead = shell({ ARBOR_DOUBLE_EXIT_AT_START: '1' });
    expect(await dead.request('GOAL "A"')).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^unavailable: the Isa-REPL server '.*' exited before it listened: .*told to fail at start/) });
  }, 90_000);

  it('refuses a configuration that cannot work, with the fix', async () => {
    const env = { ...process.env, ARBOR_ISABELLE_ADDRESS: '', ARBOR_ISABELLE_SERVER: '' };
    await expect(run(process.execPath, ['bin/arbor-shell.js', '--backend', 'isabelle'], { cwd: root, env, timeout: 30_000 }))
      .rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no Isa-REPL server configured') });
    await expect(run(process.execPath, ['bin/arbor-shell.js', '--backend', 'isabelle', '--command', 'isabelle-shell'], { cwd: root, env, timeout: 30_000 }))
      .rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--command is for --backend external') });
    await expect(run(process.execPath, ['bin/arbor-shell.js', '--backend', 'isabelle', '--isabelle-address', 'nowhere'], { cwd: root, env, timeout: 30_000 }))
      .rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("is not HOST:PORT") });
  }, 60_000);
});

describe('arbor-shell --backend external (pass-through to a channel-protocol process)', () => {
  it('forwards to another arbor-shell (eq inside) and keeps its answers', async () => {
    const s = new ShellProcess(['--backend', 'external', '--command', `${process.execPath} ${root}bin/arbor-shell.js --backend eq`]);
    shells.push(s);
    expect(await s.request('GOAL "x * e = x"')).toMatchObject({ ERR: '', STEP: 1 });
    expect(await s.request('END')).toMatchObject({ ERR: '', STEP: 2 });
    await expect(run(process.execPath, ['bin/arbor-shell.js', '--backend', 'external'], { cwd: root, timeout: 30_000 }))
      .rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--backend external needs --command') });
  }, 60_000);
});

/** Minilang's refusals, the server's timeouts and Arbor's policy, each as a stable ERR; the channel goes on. */
async function checkErrors(s: ShellProcess, double: IsaReplDouble): Promise<void> {
  await s.request('GOAL "slow P ∧ False"');
  const served = double.log.length;
  // Refused by Arbor's policy (a keyword in an argument would make Minilang read two commands; `tactic`
  // runs ML): nothing reaches the server.
  expect(await s.request('INDUCT n END')).toMatchObject({ RESPONSE: null, ERR: 'parse error: Minilang command END inside the arguments' });
  expect(await s.request('APPLY (tactic \\<open>all_tac\\<close>)')).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^parse error: proof method tactic is not allowed/) });
  expect(await s.request('HAVE "x\\" END"')).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^parse error/) });
  expect(double.log.length).toBe(served);
  // HAMMER 1: the server's \eval limit is 1 s; the answer is `timeout` and the state is unchanged.
  expect(await s.request('HAMMER 1')).toMatchObject({ RESPONSE: null, ERR: 'timeout' });
  expect(await s.request('STATE')).toMatchObject({ ERR: '', STEP: 1, RESPONSE: { goal: 'slow P ∧ False' } });
  // A rule that does not apply is Minilang's PROOF FAIL: `fail: …`, and the channel goes on.
  expect(await s.request('RULE impI')).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^fail: /), STEP: 1 });
  const split = await s.request('RULE conjI');
  expect(split).toMatchObject({ ERR: '', STEP: 2 });
  // NEXT hammers `slow P` under the channel's limit (--timeout 2): the server's \eval stops it.
  expect(await s.request('NEXT')).toMatchObject({ RESPONSE: null, ERR: 'timeout' });
  expect(await s.request('REVERT 1')).toMatchObject({ ERR: '', STEP: 1 });
  expect(await s.request('SEARCH foo')).toMatchObject({ RESPONSE: null, ERR: expect.stringMatching(/^unsupported: SEARCH/) });
}
