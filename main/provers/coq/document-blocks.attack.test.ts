import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';
import { blockEffect } from './document-blocks.ts';

const run = promisify(execFile);
const DIR = fileURLToPath(new URL('../../../.tmp/document-blocks-attack/', import.meta.url));
const PREMISE = '(section variable: a premise of the theorem once its section ends)';

describe('module sentences that open a block (attack, pure)', () => {
  it('`Module M : T with Definition x := 1.` opens M: its `:=` belongs to the constraint', () => {
    expect(blockEffect('Module M : MU with Definition x := 1.')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Module M : MU with Module Y := Z.')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Module M : MU with Definition x := 1 := N.')).toBeUndefined();
  });
});

/** Attacks on GOAL inside open sections and modules, with real arbor-shell, coqidetop and coqc. */
describe('sections and modules in documents (attack, real coqidetop and coqc)', () => {
  let shell: ShellProcess;
  beforeAll(async () => {
    await mkdir(DIR, { recursive: true });
    shell = new ShellProcess(['--timeout', '20']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
    await rm(DIR, { recursive: true, force: true });
  });

  const channel = async (): Promise<number> => ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
  const on = async (ch: number, line: string, err: string | RegExp = ''): Promise<ShellResponse> => {
    const r = await shell.request(`${ch} ${line}`, ch);
    if (typeof err === 'string') expect(r.ERR, line).toBe(err);
    else expect(r.ERR, line).toMatch(err);
    return r;
  };
  const coqc = async (name: string, script: string, after = ''): Promise<string> => {
    const file = join(DIR, `${name}.v`);
    await writeFile(file, `${script}\n${after}\n`);
    return (await run('coqc', ['-q', file], { cwd: DIR, timeout: 120_000 })).stdout;
  };

  it('a `Hypothesis : False` proves False only inside its section, listed as a premise; outside it is `False -> False`', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Section S. Hypothesis bad : False."');
    await on(ch, 'GOAL f "False"');
    await on(ch, 'APPLY exact bad');
    const end = await on(ch, 'END');
    expect(end.ASSUMPTIONS).toEqual([`bad : False ${PREMISE}`]);
    await on(ch, 'DEFINE "End S."');
    expect(((await on(ch, 'CHECK f')).RESPONSE as { type: string }).type).toBe('False -> False');
    await on(ch, 'GOAL g "False"');
    await on(ch, 'APPLY exact f', /has type "False -> False" while it is expected to have type "False"/);
    // A Definition that leaks the hypothesis is generalised as well.
    await on(ch, 'DEFINE "Section Q. Variable bad9 : False. Definition leak := bad9. End Q. Definition leak2 := leak."');
    expect(((await on(ch, 'CHECK leak2')).RESPONSE as { type: string }).type).toBe('False -> False');
    // coqc on the document's script: f is not closed, nothing is an axiom.
    const script = (await on(ch, 'SCRIPT')).RESPONSE as string;
    const out = await coqc('hyp', script, 'Print Assumptions f.\nPrint Assumptions leak2.');
    expect(out).not.toMatch(/Axioms:/);
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('a Let built from a hypothesis and a generalised Context instance are listed as the premises they rest on', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Class Bad := bad_proof : False. Section S. Context `{H : Bad}. Hypothesis bad : False. Let boom : False := bad."');
    await on(ch, 'GOAL f "False"');
    await on(ch, 'APPLY exact boom');
    expect((await on(ch, 'END')).ASSUMPTIONS).toEqual([`bad : False ${PREMISE}`]);
    await on(ch, 'GOAL g "False"');
    await on(ch, 'APPLY exact (@bad_proof H)');
    expect((await on(ch, 'END')).ASSUMPTIONS).toEqual([`H : Bad ${PREMISE}`]);
    await on(ch, 'DEFINE "End S."');
    expect(((await on(ch, 'CHECK f')).RESPONSE as { type: string }).type).toBe('False -> False');
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('assumptions outside a section stay refused, however they are dressed', { timeout: 300_000 }, async () => {
    const ch = await channel();
    const refused = /not allowed/;
    for (const text of [
      'Context (bad1 : False).',
      'Hypotheses (bad2 : False).',
      'Section S. End S. Variable bad3 : False.',
      'Module M. Section S. End S. Variable bad4 : False.',
      'Section X. Section Y. End Y. End X. Variable bad7 : False.',
      'Section Z. #[local] Parameter bad8 : False.',
    ]) await on(ch, `DEFINE "${text}"`, refused);
    await on(ch, 'DEFINE "Module Type MT. Parameter bad5 : False. End MT."');
    await on(ch, 'DEFINE "Declare Module DM : MT."', refused);
    // A theorem stated inside a module type, using its Parameter: never a closed theorem.
    await on(ch, 'DEFINE "Module Type MT2. Parameter p : False."');
    await on(ch, 'GOAL z "False"');
    await on(ch, 'APPLY exact p');
    await on(ch, 'END', /^unsound: depends on p/);
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('End with the wrong name is Coq\'s error and changes nothing; nested blocks close; the script compiles', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Module M. Section T. Variable A : Type."');
    await on(ch, 'DEFINE "End M."', 'Last block to end has name T.');
    await on(ch, 'GOAL idA "forall a : A, a = a"');
    await on(ch, 'APPLY (intros; reflexivity)');
    expect((await on(ch, 'END')).ASSUMPTIONS).toEqual([`A : Type ${PREMISE}`]);
    await on(ch, 'DEFINE "End T. End M."');
    expect(((await on(ch, 'CHECK M.idA')).RESPONSE as { type: string }).type).toBe('forall (A : Type) (a : A), a = a');
    // A module opened with a constrained type (`with Definition … :=`) is open: End closes it, the script compiles.
    await on(ch, 'DEFINE "Module Type MU. Parameter x : nat. End MU."');
    await on(ch, 'DEFINE "Module N : MU with Definition x := 1."');
    await on(ch, 'DEFINE "Definition x := 1. Section L. Let k := 3. Context (B : Type) (b : B)."');
    await on(ch, 'GOAL bb "exists y : B, y = b /\\ k = 3"');
    await on(ch, 'APPLY (exists b; split; reflexivity)');
    const bb = await on(ch, 'END');
    expect([...(bb.ASSUMPTIONS as string[])].sort()).toEqual([`B : Type ${PREMISE}`, `b : B ${PREMISE}`]);
    // The item's script is read with L and N open: it closes both, and coqc accepts it.
    // (N is sealed by MU after End N: only N.x is visible outside, as coqc says.)
    expect(await coqc('open', bb.SCRIPT as string, 'Print N.x.')).toMatch(/N\.x = 1/);
    await on(ch, 'DEFINE "End L."');
    await on(ch, 'DEFINE "End N."');
    expect(await coqc('closed', (await on(ch, 'SCRIPT')).RESPONSE as string, 'Print Assumptions M.idA.')).toContain('Closed under the global context');
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('REVERT out of a section closes it for the policy too: End and Variable are refused again; REVERT into it opens it', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Definition before := 1."');
    await on(ch, 'DEFINE "Section S. Variable v : nat."');
    await on(ch, 'GOAL inside "v = v"');
    await on(ch, 'APPLY reflexivity');
    await on(ch, 'END');
    await on(ch, 'REVERT 1');
    await on(ch, 'DEFINE "Variable w : False."', /not allowed/);
    await on(ch, 'DEFINE "End S."', /did not open/);
    await on(ch, 'CHECK v', /was not found/);
    // REVERT into the section (to the step that opened it): it is open again.
    await on(ch, 'DEFINE "Section S. Variable v : nat."');
    await on(ch, 'GOAL inside "v = v"');
    await on(ch, 'APPLY reflexivity');
    await on(ch, 'END');
    await on(ch, 'REVERT 2');
    await on(ch, 'DEFINE "Variable w : nat."');
    await on(ch, 'DEFINE "End S."');
    await on(ch, 'DEFINE "Variable w2 : False."', /not allowed/);
    await on(ch, 'RELEASE_CHANNEL');
  });

  // Inside a functor `Module F (X : MT)`, Coq's `Print Assumptions` lists the parameter's fields as axioms. They are
  // premises (each module F is applied to gives them), accepted only when Coq resolves them to the bound module's own
  // path and no library is rooted at that name: never by the name alone.
  it('a theorem inside a functor that uses the functor\'s parameter is a premise, as section variables are', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Module Type MT. Parameter x : nat. Axiom x0 : x = 0. End MT."');
    await on(ch, 'DEFINE "Module F (X : MT). Definition y := X.x."');
    await on(ch, 'GOAL fy "y = 0"');
    await on(ch, 'APPLY (unfold y; apply X.x0)');
    const fy = await on(ch, 'END');
    expect([...(fy.ASSUMPTIONS as string[])].sort()).toEqual([
      "X.x : nat (field of the functor's parameter: a premise of the theorem, given by each module the functor is applied to)",
      "X.x0 : X.x = 0 (field of the functor's parameter: a premise of the theorem, given by each module the functor is applied to)",
    ]);
    // A later theorem using fy: judged again (nothing about a parameter is remembered), still a premise.
    await on(ch, 'GOAL fy2 "0 = y"');
    await on(ch, 'APPLY (symmetry; exact fy)');
    expect((await on(ch, 'END')).ASSUMPTIONS).toHaveLength(2);
    await on(ch, 'DEFINE "End F. Module I. Definition x := 0. Definition x0 : x = 0 := eq_refl. End I. Module FI := F I."');
    await on(ch, 'GOAL used "FI.y = 0"');
    await on(ch, 'APPLY (exact FI.fy)');
    expect((await on(ch, 'END')).ASSUMPTIONS).toEqual([]);
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('a functor parameter named like a library cannot pass the library\'s axiom off as its field', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Require Coq.Compat.AdmitAxiom. Module Type MT. Parameter x : nat. End MT."');
    await on(ch, 'DEFINE "Module F (Coq : MT)."');
    await on(ch, 'GOAL cheat "False"');
    await on(ch, 'APPLY (exact Coq.Compat.AdmitAxiom.proof_admitted)');
    await on(ch, 'END', /^unsound: depends on/);
    await on(ch, 'RELEASE_CHANNEL');
  });
});
