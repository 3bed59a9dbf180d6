import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { readCoqProject } from './coq-project.ts';
import { createWorkbenchShell } from './workbench-shell.ts';
import { writtenCoqProject } from './testing/coq-project-fixture.ts';
import type { WorkbenchShell } from './workbench-shell.ts';

/**
 * Attack on the statement judge's identity (session 13, docs/statement-identity-attacks.md): equal kernel texts
 * (`Arbor_statement`'s canonical kernel names) mean the same statement. A kernel name is written as a string, and
 * two different objects can have the same one: the document is the file `Top`, so its `Module foo` holds
 * `Top.foo.x`; a trusted project mapped to the logical root `Top` (`-Q theories Top`) has a library `Top.foo`
 * whose `x` is also `Top.foo.x`. The document defines its `foo.x := 5` first and then `Require Top.foo.` (a library
 * sentence, run in the clean environment too): there `foo.x` is the library's `0`. `foo.x = 5` — false in the clean
 * reading — would be proved by `reflexivity` with both kernel texts `(const "Top.foo.x")`. Held: Coq refuses the
 * second object with that absolute name ("Top.foo already exists"; likewise `Top.A.B` against `Module A. Module B.`).
 */

describe('a project library under the logical root Top (real coqidetop)', () => {
  let root: string;
  let ws: WorkbenchShell;
  let channel = 0;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(ws.shell.submitLine(`${channel} ${line}`)))[0] as ShellResponse;

  beforeAll(async () => {
    root = await writtenCoqProject('atk-top-', 'Top', { 'foo.v': 'Definition x := 0.\n' });
    const setup = await readCoqProject(root);
    ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, project: () => setup?.args });
    const [r] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    channel = (r?.RESPONSE as { ID: number }).ID;
  }, 180_000);
  afterAll(async () => {
    await ws?.dispose();
    await rm(root, { recursive: true, force: true });
  });

  // Held: Coq itself refuses the second object with that absolute name ("Top.foo already exists"), whichever comes first.
  it('Coq refuses a library named like the document\'s own module', async () => {
    const define = await send('DEFINE "Module foo. Definition x := 5. End foo. Require Top.foo."');
    expect(define.ERR).toMatch(/already exists/);
    const other = await send('DEFINE "Module A. Module B. Definition x := 5. End B. End A."');
    expect(other.ERR).toBe('');
    expect((await send('DEFINE "Require Top.foo."')).ERR).toBe('');
    // The document's `foo` was refused above; the library's `foo.x` is the same in both readings.
    expect((await send('GOAL "foo.x = 0"')).ERR).toBe('');
    expect((await send('APPLY reflexivity')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
  }, 180_000);
});
