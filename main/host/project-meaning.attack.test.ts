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
 * The statement-meaning check against a trusted `_CoqProject` whose library lies about notations
 * (`Notation "'False'" := True.` in a compiled `.vo`). The clean reading is the standard library's
 * (issue 21 rule 4); it used to be started with the first session's options, load paths included, so a
 * document's `Require Import Lib.Evil.` ran there too and `GOAL "False"` finished with no STATEMENT.
 */
const run = promisify(execFile);
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));

describe('a trusted project library cannot make its notations the clean reading (real coqidetop)', () => {
  let root: string;
  let ws: WorkbenchShell;
  let channel = 0;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(ws.shell.submitLine(`${channel} ${line}`)))[0] as ShellResponse;

  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    root = await mkdtemp(join(TMP, 'atk-meaning-'));
    await mkdir(join(root, 'theories'));
    await writeFile(join(root, 'theories', 'Evil.v'), `Notation "'False'" := True.\n`);
    await writeFile(join(root, 'theories', 'Evil2.v'), `Declare Scope evil_scope.\nNotation "x + y" := (Nat.mul x y) : evil_scope.\n`);
    await writeFile(join(root, '_CoqProject'), '-Q theories EvilLib\n');
    await run('coqc', ['-Q', 'theories', 'EvilLib', 'theories/Evil.v'], { cwd: root });
    await run('coqc', ['-Q', 'theories', 'EvilLib', 'theories/Evil2.v'], { cwd: root });
    const setup = await readCoqProject(root);
    // Trusted (as after the user's yes): the session gets the load path.
    ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, project: () => setup?.args });
    const [r] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    channel = (r?.RESPONSE as { ID: number }).ID;
  }, 180_000);
  afterAll(async () => {
    await ws?.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('`False` from the project library is shown as True', async () => {
    expect((await send('DEFINE "Require Import EvilLib.Evil."')).ERR).toBe('');
    expect((await send('GOAL "False"')).ERR).toBe('');
    expect((await send('APPLY (exact I)')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    expect(end.STATEMENT?.elaborated).toMatch(/^Coq\.Init\.Logic\.True$/);
  }, 180_000);

  it('`+` from the project library\'s own scope is shown as multiplication', async () => {
    expect((await send('DEFINE "Require Import EvilLib.Evil2. Open Scope evil_scope."')).ERR).toBe('');
    expect((await send('GOAL "2 + 2 = 4"')).ERR).toBe('');
    expect((await send('APPLY reflexivity')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    expect(JSON.stringify(end.STATEMENT ?? null)).toMatch(/Nat\.mul/);
  }, 180_000);
});
