import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from './shell-process.ts';

const run = promisify(execFile);

/** Proof documents through the real arbor-shell and coqidetop: declarations, several theorems, look-ups. */
describe('proof documents (real coqidetop)', () => {
  let shell: ShellProcess;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'arbor-docs-'));
    shell = new ShellProcess(['--timeout', '20']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps finished theorems for later items, declares with DEFINE, and scripts each finished item with what it needs', async () => {
    const def = await shell.request('DEFINE "Fixpoint double (n : nat) : nat := match n with 0 => 0 | S k => S (S (double k)) end."');
    expect(def.ERR).toBe('');
    expect(def.STEP).toBe(1);
    expect(def.RESPONSE).toEqual({ declared: [{ name: 'double', type: 'nat -> nat', kind: 'Constant', module: 'document' }] });

    expect((await shell.request('GOAL double_plus "forall n, double n = n + n"')).STEP).toBe(2);
    expect((await shell.request('APPLY (induction n; simpl; [reflexivity | rewrite IHn; lia])')).ERR).toBe('');
    const done = await shell.request('END');
    expect(done.ERR).toBe('');
    expect(done.ASSUMPTIONS).toEqual([]);

    // The next theorem uses the first one by name.
    expect((await shell.request('GOAL double_even "forall n, exists k, double n = 2 * k"')).ERR).toBe('');
    expect((await shell.request('APPLY (intros n; exists n; rewrite double_plus; lia)')).ERR).toBe('');
    const second = await shell.request('END');
    expect(second.ERR).toBe('');
    const script = second.SCRIPT as string;
    expect(script).toContain('Fixpoint double');
    expect(script).toContain('Theorem double_plus');
    expect(script).toContain('Theorem double_even');

    // The reproduction script is checked by coqc alone, both theorems closed.
    const file = join(dir, 'doc.v');
    await writeFile(file, `${script}\nPrint Assumptions double_even.\n`);
    const { stdout } = await run('coqc', ['-q', file], { cwd: dir, timeout: 120_000 });
    expect(stdout).toContain('Closed under the global context');

    // The document's lemma is found by SEARCH, with where it is defined.
    const search = await shell.request('SEARCH double _ = _ + _');
    expect(search.ERR).toBe('');
    expect((search.RESPONSE as { results: { name: string; module?: string }[] }).results).toContainEqual(
      expect.objectContaining({ name: 'double_plus', module: 'document' }),
    );
  }, 180_000);

  it('an unfinished proof is discarded by the next item; a finished one is not', async () => {
    await shell.request('GOAL forgotten "1 = 1"');
    const d = await shell.request('DEFINE "Definition triple (n : nat) := 3 * n."');
    expect(d.ERR).toBe('');
    // `forgotten` never finished: it is not in the environment.
    const about = await shell.request('ABOUT forgotten');
    expect(about.ERR).toMatch(/forgotten/);
    expect((await shell.request('GOAL forgotten "triple 1 = 3"')).ERR).toBe('');
    const end = await shell.request('END');
    expect(end.ERR).toBe('');
    // The END's script is this item's (with the declarations), not the whole document's: SCRIPT has that.
    expect(end.SCRIPT).toContain('Definition triple');
    expect(end.SCRIPT).toContain('Theorem forgotten');
    expect(end.SCRIPT).not.toContain('Theorem double_even');
    expect((await shell.request('SCRIPT')).RESPONSE).toContain('Theorem double_even');
    // A finished theorem's name cannot be reused.
    expect((await shell.request('GOAL forgotten "2 = 2"')).ERR).toMatch(/already exists/);
  }, 120_000);

  it('REVERT works across items', async () => {
    const ch = (await shell.request('NEW_CHANNEL')).RESPONSE as { ID: number };
    const c = ch.ID;
    expect((await shell.request(`${c} DEFINE "Definition one := 1."`)).STEP).toBe(1);
    expect((await shell.request(`${c} GOAL one_pos "one > 0"`)).STEP).toBe(2);
    expect((await shell.request(`${c} END`)).STEP).toBe(3);
    expect((await shell.request(`${c} DEFINE "Definition two := one + one."`)).STEP).toBe(4);
    // Back to before `two`: it is gone, `one_pos` is still there.
    expect((await shell.request(`${c} REVERT 3`)).ERR).toBe('');
    expect((await shell.request(`${c} ABOUT two`)).ERR).not.toBe('');
    expect((await shell.request(`${c} ABOUT one_pos`)).ERR).toBe('');
    // Back into the middle of the proof: the theorem is open again, and not in the environment.
    const back = await shell.request(`${c} REVERT 2`);
    expect(back.ERR).toBe('');
    expect(back.RESPONSE).toMatchObject({ goal: 'one > 0' });
    expect((await shell.request(`${c} ABOUT one_pos`)).ERR).not.toBe('');
    expect((await shell.request(`${c} END`)).ERR).toBe('');
    expect((await shell.request(`${c} ABOUT one_pos`)).ERR).toBe('');
  }, 120_000);

  it('answers look-ups with structure', async () => {
    const ch = ((await shell.request('NEW_CHANNEL')).RESPONSE as { ID: number }).ID;
    const search = await shell.request(`${ch} SEARCH length (rev _)`);
    expect(search.RESPONSE).toMatchObject({ results: [expect.objectContaining({ name: 'rev_length', module: 'Coq.Lists.List', kind: 'Constant' })], truncated: false });
    const check = await shell.request(`${ch} CHECK app_length`);
    expect(check.RESPONSE).toEqual({ term: 'app_length', type: "forall (A : Type) (l l' : list A), length (l ++ l') = length l + length l'" });
    const about = await shell.request(`${ch} ABOUT app_length`);
    expect(about.RESPONSE).toMatchObject({ name: 'app_length', fullName: 'Coq.Lists.List.app_length', module: 'Coq.Lists.List', kind: 'Constant', transparent: false });
    await shell.request(`${ch} DEFINE "Inductive tree := Leaf | Node (l : tree) (n : nat) (r : tree)."`);
    const print = await shell.request(`${ch} PRINT tree`);
    expect((print.RESPONSE as { text: string }).text).toMatch(/^Inductive tree/);
    const locate = await shell.request(`${ch} LOCATE Leaf`);
    expect(locate.RESPONSE).toEqual({ name: 'Leaf', results: [{ kind: 'Constructor', name: 'Leaf' }] });
    // Inside a proof, the hypotheses are in scope for CHECK.
    await shell.request(`${ch} GOAL "forall t : tree, t = t"`);
    await shell.request(`${ch} APPLY intros t`);
    expect((await shell.request(`${ch} CHECK Node t 0 t`)).RESPONSE).toEqual({ term: 'Node t 0 t', type: 'tree' });
    // Hostile look-ups are refused before Coq sees them.
    expect((await shell.request(`${ch} CHECK 1). Axiom cheat : False. Check (1`)).ERR).toMatch(/^parse error/);
    expect((await shell.request(`${ch} ABOUT foo. Axiom`)).ERR).toMatch(/^parse error/);
  }, 120_000);

  it('DEFINE goes through the vernacular policy', async () => {
    const ch = ((await shell.request('NEW_CHANNEL')).RESPONSE as { ID: number }).ID;
    expect((await shell.request(`${ch} DEFINE "Axiom cheat : False."`)).ERR).toMatch(/not allowed/);
    expect((await shell.request(`${ch} DEFINE "Definition x := 1. Redirect \\"/tmp/x\\" Print x."`)).ERR).toMatch(/not allowed/);
    // Notation overrides are allowed (their meaning is shown at END, docs/notation-overrides.md); a warning made an error is not.
    expect((await shell.request(`${ch} DEFINE "Set Warnings \\"+notation-overridden\\"."`)).ERR).toMatch(/option not allowed/);
    // A refused declaration leaves nothing behind.
    expect((await shell.request(`${ch} GOAL "False"`)).ERR).toBe('');
    expect((await shell.request(`${ch} END`)).ERR).not.toBe('');
  }, 120_000);
});
