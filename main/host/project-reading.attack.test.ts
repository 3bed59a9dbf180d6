import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { readCoqProject } from './coq-project.ts';
import { createWorkbenchShell } from './workbench-shell.ts';
import type { WorkbenchShell } from './workbench-shell.ts';

/**
 * Attack on the clean reading with a trusted project (issue 24 item 3): the project's modules come in
 * without notations, coercions, canonicals or hints — also when the hostile part is re-exported
 * (`Require Export` of another module, `Export` of an inner module) or is a `#[global]` hint that builds a
 * class instance from Coq's own names only (so no project name shows up in the term). In each case the
 * statement is shown as meaning something else; nothing reads as "same meaning". Real coqidetop.
 */
const run = promisify(execFile);
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));
const FILES: Record<string, string> = {
  'Evil.v': `Notation "'False'" := True.\n`,
  'Outer.v': 'Require Export EvilLib.Evil.\nDefinition outer := 1.\n',
  'Sub.v': `Module Inner.\nNotation "'False'" := True.\nEnd Inner.\nExport Inner.\nDefinition sub := 1.\n`,
  'Hint.v': [
    'Require Import Coq.Classes.SetoidClass.',
    '#[global] Hint Extern 0 (Setoid nat) => exact (@Build_Setoid nat (fun _ _ => True) (@Build_Equivalence nat (fun _ _ : nat => True) (fun _ : nat => I) (fun (_ _ : nat) (_ : True) => I) (fun (_ _ _ : nat) (_ _ : True) => I))) : typeclass_instances.',
    'Definition hint := 1.',
    '',
  ].join('\n'),
};

describe('a trusted library cannot slip its reading into the clean environment (real coqidetop)', () => {
  let root: string;
  let ws: WorkbenchShell;
  let channel = 0;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(ws.shell.submitLine(`${channel} ${line}`)))[0] as ShellResponse;
  const fresh = async (): Promise<void> => {
    const [r] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    channel = (r?.RESPONSE as { ID: number }).ID;
  };

  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    root = await mkdtemp(join(TMP, 'atk-reading-'));
    await mkdir(join(root, 'theories'));
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(root, 'theories', name), text);
    await writeFile(join(root, '_CoqProject'), '-Q theories EvilLib\n');
    for (const name of Object.keys(FILES)) await run('coqc', ['-Q', 'theories', 'EvilLib', `theories/${name}`], { cwd: root });
    const setup = await readCoqProject(root);
    ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, project: () => setup?.args });
  }, 240_000);
  afterAll(async () => {
    await ws?.dispose();
    await rm(root, { recursive: true, force: true });
  });

  for (const [library, how] of [['Outer', 'Require Export of the notation'], ['Sub', 'Export of an inner module with the notation']]) {
    it(`\`False\` through ${how} is shown as True`, async () => {
      await fresh();
      expect((await send(`DEFINE "Require Import EvilLib.${library}."`)).ERR).toBe('');
      expect((await send('GOAL "False"')).ERR).toBe('');
      expect((await send('APPLY (exact I)')).ERR).toBe('');
      const end = await send('END');
      expect(end.ERR).toBe('');
      expect(end.STATEMENT?.elaborated).toMatch(/^Coq\.Init\.Logic\.True$/);
    }, 240_000);
  }

  it('a global hint building an instance from Coq names only is shown (was: same meaning, the hint is active once the library is loaded)', async () => {
    await fresh();
    expect((await send('DEFINE "Require Import Coq.Classes.SetoidClass. Require Import EvilLib.Hint."')).ERR).toBe('');
    expect((await send('GOAL "forall x y : nat, x == y"')).ERR).toBe('');
    expect((await send('APPLY (intros; exact I)')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    expect(end.STATEMENT, JSON.stringify(end)).toBeDefined();
    expect(end.STATEMENT?.differences.join('\n')).toMatch(/without the project's library/);
  }, 240_000);

  // Left: once the text names something of the project (`hint`), there is no reading without the project to
  // compare with, and the instance the global hint built uses Coq's names only (Build_Setoid, True, I).
  it.fails('a global hint building an instance from Coq names only, in a text that also names a project constant (no project-free reading exists)', async () => {
    await fresh();
    expect((await send('DEFINE "Require Import Coq.Classes.SetoidClass. Require Import EvilLib.Hint."')).ERR).toBe('');
    expect((await send('GOAL "forall x : nat, x == hint"')).ERR).toBe('');
    expect((await send('APPLY (intros; exact I)')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    expect(end.STATEMENT, JSON.stringify(end)).toBeDefined();
  }, 240_000);
});
