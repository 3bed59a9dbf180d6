import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

const run = promisify(execFile);
const DIR = fileURLToPath(new URL('../../../.tmp/document-blocks/', import.meta.url));

/**
 * Issue 24: GOAL inside an open Section or Module, and documents that start from Coq's bare environment.
 * Real arbor-shell, coqidetop and coqc.
 */
describe('GOAL inside sections and modules; the bare environment (real coqidetop and coqc)', () => {
  let shell: ShellProcess;
  beforeAll(async () => {
    await mkdir(DIR, { recursive: true });
    shell = new ShellProcess(['--timeout', '20']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
    await rm(DIR, { recursive: true, force: true });
  });

  const on = async (ch: number, line: string, err = ''): Promise<ShellResponse> => {
    const r = await shell.request(`${ch} ${line}`, ch);
    expect(r.ERR, line).toBe(err);
    return r;
  };
  const channel = async (): Promise<number> => ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
  const coqc = async (name: string, script: string, after = ''): Promise<string> => {
    const file = join(DIR, `${name}.v`);
    await writeFile(file, `${script}\n${after}\n`);
    return (await run('coqc', ['-q', file], { cwd: DIR, timeout: 120_000 })).stdout;
  };

  it('a section variable is a premise after End; the item\'s and the document\'s scripts compile', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Section Sums. Variable n : nat. Hypothesis n_pos : 0 < n."');
    await on(ch, "GOAL n_succ' \"exists m, n = S m\"");
    await on(ch, 'APPLY (destruct n as [|m]; [inversion n_pos | exists m; reflexivity])');
    const end = await on(ch, 'END');
    // Inside the section the theorem is proved under its variables: listed, never hidden, never refused.
    expect([...(end.ASSUMPTIONS as string[])].sort()).toEqual(['n : nat (section variable: a premise of the theorem once its section ends)', 'n_pos : 0 < n (section variable: a premise of the theorem once its section ends)']);
    // The item's script is read while the section is open: it closes it, and coqc accepts it.
    expect(end.SCRIPT).toMatch(/Section Sums\.[\s\S]*Theorem n_succ' [\s\S]*Qed\.[\s\S]*End Sums\.\s*$/);
    expect(await coqc('item', end.SCRIPT as string, "Check n_succ'.")).toMatch(/forall n : nat, 0 < n -> exists m : nat, n = S m/);
    await on(ch, 'DEFINE "End Sums."');
    // After End the theorem is generalised: using it needs the premises, as in Coq.
    await on(ch, 'GOAL one_succ "exists m, 1 = S m"');
    await on(ch, "APPLY (apply (n_succ' 1); auto)");
    expect((await on(ch, 'END')).ASSUMPTIONS).toEqual([]);
    // A module that redefines a library name: its theorem is shown with the module's own qualified name.
    await on(ch, 'DEFINE "Module Mine. Inductive bool := true | false. Definition negb (b : bool) := match b with true => false | false => true end."');
    await on(ch, 'GOAL negb_invol "forall b : bool, negb (negb b) = b"');
    await on(ch, 'APPLY (destruct b; reflexivity)');
    const mine = await on(ch, 'END');
    expect(JSON.stringify(mine.STATEMENT)).toContain('Top.Mine.bool');
    // A `Variable` outside a section is an axiom: refused before it runs.
    await on(ch, 'DEFINE "Variable oops : False."', 'parse error: declaration sentence not allowed: Variable (assumptions are not allowed here)');
    await on(ch, 'DEFINE "End Mine."');
    await on(ch, 'DEFINE "End Mine."', 'parse error: declaration closes a section or module it did not open');
    const script = (await on(ch, 'SCRIPT')).RESPONSE as string;
    expect(await coqc('document', script, 'Print Assumptions one_succ.\nCheck Mine.negb_invol.')).toContain('Closed under the global context');
    // REVERT into the section: it is open again, and a new item is stated inside it.
    await on(ch, 'REVERT 1');
    await on(ch, 'GOAL in_again "n + 0 = n"');
    await on(ch, 'APPLY (rewrite <- plus_n_O; reflexivity)');
    expect((await on(ch, 'END')).SCRIPT).toMatch(/Theorem in_again[\s\S]*End Sums\.\s*$/);
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('PRELUDE bare: Init only, the document\'s own notations and names; Arbor\'s tactics still work', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'PRELUDE bare');
    // Nothing of Arbor's default libraries is in the document's namespace…
    await on(ch, 'CHECK ltb', 'The reference ltb was not found in the current environment.');
    expect((await shell.request(`${ch} CHECK [1]`, ch)).ERR).toMatch(/Syntax error/);
    // …so a development may declare what the default prelude would collide with (`Notation … : nat_scope`).
    await on(ch, 'DEFINE "Notation \\"x =? y\\" := (Nat.eqb x y) (at level 70) : nat_scope."');
    await on(ch, "DEFINE \"Inductive list' (A : Type) := nil' | cons' (x : A) (l : list' A). Arguments nil' {A}. Arguments cons' {A}.\"");
    await on(ch, 'GOAL eqb_refl "forall n, (n =? n) = true"');
    await on(ch, 'APPLY (induction n; simpl; auto)');
    await on(ch, 'END');
    // lia, CoqHammer's sauto and CRUSH are there without importing their libraries.
    await on(ch, 'GOAL comm "forall a b : nat, a + b = b + a"');
    await on(ch, 'APPLY lia');
    await on(ch, 'END');
    await on(ch, "GOAL nil_ne \"forall (A : Type) (x : A) l, cons' x l <> nil'\"");
    await on(ch, 'APPLY sauto');
    const end = await on(ch, 'END');
    expect(end.SCRIPT).not.toMatch(/Import (Arith|List|ListNotations|Bool|ZArith)\b/);
    expect(await coqc('bare', end.SCRIPT as string, 'Print Assumptions nil_ne.')).toContain('Closed under the global context');
    // Named library sets: exactly those imports.
    await on(ch, 'PRELUDE lists');
    expect((await on(ch, 'CHECK [1]')).RESPONSE).toMatchObject({ type: 'list nat' });
    await on(ch, 'CHECK ltb', 'The reference ltb was not found in the current environment.');
    await on(ch, 'PRELUDE nonsense', 'unknown environment: nonsense (known: default, bare, or a list of arith, bool, lia, lists, zarith, strings)');
    await on(ch, 'RELEASE_CHANNEL');
  });
});
