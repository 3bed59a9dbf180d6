import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendants } from '../process/process-tree.ts';
import { ShellProcess } from './shell-process.ts';

const run = promisify(execFile);
const EMPTY = { vars: [], hyps: [] };
const FINISHED = { ctxt: EMPTY, goal: [] };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-shell-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** coqidetop processes that are children of the given shell process. */
/** The shell's coqidetop processes (below the sandbox's bwrap when sandboxed, so descendants, not only children). */
function coqChildren(pid: number): number[] {
  return descendants(pid).filter((p) => p.name.includes('coqidetop')).map((p) => p.pid);
}

describe('arbor-shell (real coqidetop)', () => {
  it('proves the README example in two lines with a SCRIPT that coqc accepts', async () => {
    const input = 'GOAL "forall n m : nat, n + m = m + n"\nEND\n';
    const { stdout } = await run('sh', ['-c', `printf '${input.replace(/\n/g, '\\n')}' | node bin/arbor-shell.js`], { timeout: 120_000 });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0] as string);
    expect(first).toEqual({ CHANNEL: 0, RESPONSE: { ctxt: EMPTY, goal: 'forall n m : nat, n + m = m + n' }, ERR: '', STEP: 1 });
    const second = JSON.parse(lines[1] as string);
    expect(second).toMatchObject({ CHANNEL: 0, RESPONSE: FINISHED, ERR: '', STEP: 2 });
    const file = join(dir, 'readme.v');
    await writeFile(file, `${second.SCRIPT}\nPrint Assumptions arbor_goal.\n`);
    const { stdout: coq } = await run('coqc', ['-q', file], { cwd: dir, timeout: 120_000 });
    expect(coq).toContain('Closed under the global context');
  }, 180_000);

  describe('commands and errors', () => {
    let shell: ShellProcess;
    const transcript = join(tmpdir(), `arbor-transcript-${process.pid}.jsonl`);
    beforeAll(() => {
      shell = new ShellProcess(['--timeout', '10', '--transcript', transcript]);
    });
    afterAll(async () => {
      expect(await shell.end()).toBe(0);
      // Every request and every response, as JSON lines, in the order they happened.
      const lines = (await readFile(transcript, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const requests = lines.filter((l) => 'request' in l);
      const responses = lines.filter((l) => 'response' in l);
      expect(requests.length).toBeGreaterThan(30);
      expect(responses.length).toBe(requests.length);
      expect(requests[0]).toMatchObject({ channel: 0, request: expect.stringMatching(/^GOAL/) });
      expect(responses[0]).toMatchObject({ response: { CHANNEL: 0, ERR: '', STEP: 1 } });
      await rm(transcript, { force: true });
    });

    it('GOAL, HAVE, OBTAIN, LET, END/NEXT build and shrink the tree with STEP numbers', async () => {
      expect(await shell.request('GOAL "forall n : nat, 2 <= n -> exists m, m < n /\\ 0 < m"')).toMatchObject({ ERR: '', STEP: 1 });
      const intro = await shell.request('APPLY intros n Hn');
      expect(intro).toMatchObject({ ERR: '', STEP: 2, RESPONSE: { ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [{ name: 'Hn', expr: '2 <= n' }] }, goal: 'exists m : nat, m < n /\\ 0 < m' } });
      expect(await shell.request('LET ?one = "1"')).toMatchObject({ ERR: '', STEP: 3 });
      const obtain = await shell.request('OBTAIN k :: nat where Hlt: "k < n" and Hpos: "?one <= k"');
      expect(obtain.ERR).toBe('');
      const goals = (obtain.RESPONSE as { goal: { ctxt: unknown; goal: string }[] }).goal;
      expect(goals).toHaveLength(2);
      expect(goals[0]?.goal).toMatch(/exists k : nat, k < n \/\\ 1 <= k/);
      expect(goals[1]?.ctxt).toEqual({ vars: [{ name: 'k', type: 'nat' }], hyps: [{ name: 'Hlt', expr: 'k < n' }, { name: 'Hpos', expr: '1 <= k' }] });
      expect(await shell.request('END')).toMatchObject({ ERR: '', STEP: 5 });
      const have = await shell.request('HAVE "0 < k"');
      expect(have.ERR).toBe('');
      expect((have.RESPONSE as { goal: { ctxt: { hyps: { name: string }[] } }[] }).goal[1]?.ctxt.hyps[0]?.name).toBe('h2');
      expect(await shell.request('NEXT')).toMatchObject({ ERR: '', STEP: 7 });
      const done = await shell.request('APPLY (exists k; split; assumption)');
      expect(done).toMatchObject({ ERR: '', STEP: 8 });
      const end = await shell.request('END');
      expect(end).toMatchObject({ ERR: '', STEP: 9, RESPONSE: FINISHED });
      expect(end.SCRIPT).toContain('Qed.');
      expect(await shell.request('END')).toMatchObject({ ERR: 'no goal' });
    }, 120_000);

    it('REVERT restores a step and the next command continues from it', async () => {
      // Steps are numbered across the document: the finished proofs of earlier tests come first.
      const goal = await shell.request('GOAL "forall b : bool, negb (negb b) = b"');
      const base = (goal.STEP as number) - 1;
      await shell.request('APPLY intro b');
      const split = await shell.request('APPLY destruct b');
      expect((split.RESPONSE as { goal: unknown[] }).goal).toHaveLength(2);
      const back = await shell.request(`REVERT ${base + 2}`);
      expect(back).toMatchObject({ ERR: '', STEP: base + 2, RESPONSE: { ctxt: { vars: [{ name: 'b', type: 'bool' }], hyps: [] }, goal: 'negb (negb b) = b' } });
      expect(await shell.request('APPLY (destruct b; reflexivity)')).toMatchObject({ ERR: '', STEP: base + 3, RESPONSE: { goal: 'True' } });
      expect(await shell.request('END')).toMatchObject({ ERR: '', STEP: base + 4, RESPONSE: FINISHED });
      expect((await shell.request(`REVERT ${base + 7}`)).ERR).toBe(`bad step: ${base + 7} (1..${base + 4})`);
    }, 60_000);

    it('CRUSH, RULE, UNFOLD and HAMMER act on the current goal', async () => {
      await shell.request('GOAL "forall P Q : Prop, P /\\ Q -> Q /\\ P"');
      const crushed = await shell.request('CRUSH');
      expect(crushed.ERR).toBe('');
      await shell.request('GOAL "forall a b : nat, a <= b -> a <= b + 1"');
      await shell.request('APPLY intros a b H');
      const rule = await shell.request('RULE Nat.le_trans');
      expect(rule.ERR).toBe('');
      await shell.request('GOAL "forall a b : nat, a + b = b + a"');
      await shell.request('APPLY intros a b');
      expect(await shell.request('UNFOLD Nat.add_comm')).toMatchObject({ ERR: '', RESPONSE: { goal: 'b + a = b + a' } });
      expect(await shell.request('UNFOLD nat')).toMatchObject({ ERR: 'bad rule: not an equation' });
      expect(await shell.request('HAMMER 20')).toMatchObject({ ERR: '', RESPONSE: { goal: 'True' } });
    }, 120_000);

    it('SCRIPT marks open goals; PRINT_MODE 2 prints s-expressions with full names', async () => {
      await shell.request('GOAL "forall n : nat, n + 0 = n"');
      const script = await shell.request('SCRIPT');
      expect(script.ERR).toBe('');
      expect(script.RESPONSE).toMatch(/Theorem arbor_goal[\s\S]*Admitted\./);
      const sexp = await shell.request('PRINT_MODE 2');
      expect(sexp.ERR).toBe('');
      const goal = (sexp.RESPONSE as { goal: string }).goal;
      expect(goal).toContain('Coq.Init.Datatypes.nat');
      expect(goal).toMatch(/_0/);
      expect((await shell.request('PRINT_MODE 1')).RESPONSE).toMatchObject({ goal: 'forall n : nat, n + 0 = n' });
    }, 60_000);

    it('answers every error with its stable string and keeps serving', async () => {
      expect(await shell.request('FROBNICATE')).toEqual({ CHANNEL: 0, RESPONSE: null, ERR: 'unknown command: FROBNICATE' });
      expect(await shell.request('42 STATE', 42)).toEqual({ CHANNEL: 42, RESPONSE: null, ERR: 'bad channel' });
      expect((await shell.request('GOAL "unclosed')).ERR).toBe('parse error: unclosed quote');
      const base = ((await shell.request('GOAL "forall n : nat, n = n + 1"')).STEP as number) - 1;
      expect((await shell.request('APPLY (intros n; lia)')).ERR).not.toBe('');
      expect(await shell.request('APPLY intro n')).toMatchObject({ ERR: '', STEP: base + 2 });
      expect((await shell.request('CRUSH')).ERR).toBe('fail');
      expect((await shell.request('HAMMER 2')).ERR).toMatch(/^(fail|timeout)/);
      expect((await shell.request('APPLY no_such_tactic_xyz')).ERR).toMatch(/no_such_tactic_xyz/);
      expect(await shell.request('STATE')).toMatchObject({ ERR: '', STEP: base + 2, RESPONSE: { goal: 'n = n + 1' } });
    }, 60_000);

    it('refuses sentence-ending injection in terms and tactics with a parse error', async () => {
      await shell.request('GOAL "True"');
      const attempts = [
        'HAVE "True). Redirect \\"/tmp/arbor-pwned\\" Print nat. (True"',
        'APPLY idtac. Redirect "/tmp/arbor-pwned" Print nat',
        'APPLY (idtac). Load "/etc/passwd"',
        'GOAL "True. Cd \\"/tmp\\"."',
        'RULE I. Declare ML Module "evil"',
        'HAVE "True (* comment"',
      ];
      for (const attempt of attempts) expect((await shell.request(attempt)).ERR, attempt).toMatch(/^parse error/);
      // Without a sentence end, a vernacular keyword is only ever read as (failing) tactic text.
      expect((await shell.request('APPLY Redirect "/tmp/arbor-pwned" Print nat')).ERR).not.toBe('');
      expect((await shell.request('PRELUDE "Redirect \\"/tmp/arbor-pwned\\" Print nat."')).ERR).toMatch(/^parse error/);
      await expect(readFile('/tmp/arbor-pwned')).rejects.toThrow();
      expect(await shell.request('STATE')).toMatchObject({ ERR: '', RESPONSE: { goal: 'True' } });
    }, 60_000);

    it('survives binary bytes, lone semicolons, CR/CRLF and a 10 MB line', async () => {
      shell.write(Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x0a]));
      expect((await shell.next()).ERR).toMatch(/^(unknown command|parse error)/);
      shell.write(' ; ;\r\nSTATE\r');
      expect((await shell.next()).ERR).toBe('');
      shell.write(`HAVE "${'x'.repeat(10 * 1024 * 1024)}"\n`);
      expect((await shell.next()).ERR).toMatch(/^parse error: request too long/);
      expect((await shell.request('STATE')).ERR).toBe('');
      // On another channel: answered there, where its client waits (it used to come on channel 0).
      const { RESPONSE } = await shell.request('NEW_CHANNEL');
      const id = (RESPONSE as { ID: number }).ID;
      expect(await shell.request(`${id} HAVE "${'x'.repeat(2 * 1024 * 1024)}"`, id)).toMatchObject({ CHANNEL: id, ERR: expect.stringMatching(/^parse error: request too long/) });
    }, 60_000);
  });

  describe('channels and failures', () => {
    it('runs channels in parallel; a timeout or a killed prover on one leaves the other untouched', async () => {
      const shell = new ShellProcess(['--timeout', '5']);
      const { RESPONSE } = await shell.request('NEW_CHANNEL');
      expect(RESPONSE).toEqual({ ID: 1 });
      await shell.request('GOAL "forall l : list nat, rev (rev l) = l"');
      await shell.request('1 GOAL "forall n : nat, n * 1 = n"');
      // A tactic that never ends, on channel 0, while channel 1 works.
      const loop = shell.request('APPLY (do 1000000000 (try fail))');
      expect(await shell.request('1 END', 1)).toMatchObject({ ERR: '', RESPONSE: FINISHED });
      expect((await loop).ERR).toBe('timeout');
      expect(await shell.request('STATE')).toMatchObject({ ERR: '', STEP: 1 });

      // Kill channel 0's prover in the middle of a command: that command fails, the channel recovers,
      // channel 1 never notices. Channel 0's prover is the shell's oldest child (started first).
      await shell.request('1 GOAL "forall n : nat, n + 0 = n"', 1);
      expect(await shell.request('APPLY intro l')).toMatchObject({ ERR: '', STEP: 2 });
      const pids = coqChildren(shell.child.pid as number).sort((a, b) => a - b);
      expect(pids.length).toBeGreaterThanOrEqual(2);
      const slow = shell.request('APPLY (do 1000000000 (try fail))');
      await new Promise((r) => setTimeout(r, 500));
      process.kill(pids[0] as number, 'SIGKILL');
      expect((await slow).ERR).toMatch(/^prover crashed/);
      // Channel 1's second theorem follows its first (GOAL, END) in the document's numbering.
      expect(await shell.request('1 STATE', 1)).toMatchObject({ ERR: '', STEP: 3 });
      expect(await shell.request('STATE')).toMatchObject({ ERR: '', STEP: 2 });
      expect(await shell.request('APPLY (induction l; simpl; [reflexivity|])')).toMatchObject({ ERR: '', STEP: 3 });
      expect(await shell.end()).toBe(0);
    }, 180_000);
  });
});
