import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { CoqShells } from '../batch/coq-shells.ts';
import { runCheckJob } from '../batch/jobs/check-job.ts';
import { runProcess } from '../process/process-manager.ts';
import { cleanReading } from '../provers/coq/statement-reading.ts';
import { readCoqProject } from './coq-project.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';
import { compiledCoqProject } from './testing/coq-project-fixture.ts';
import { createWorkbenchShell } from './workbench-shell.ts';
import type { WorkbenchShell } from './workbench-shell.ts';

const LIBRARY = 'Require Import MyLib.Defs MyLib.Lemmas.';
const PICKS = [
  'Class Holds (A : Type) := { holds : A -> Prop }.',
  '#[global] Instance any_holds : Holds bool := { holds := fun _ => True }.',
  'Definition is_true_prop (b : bool) : Prop := True.',
  'Coercion is_true_prop : bool >-> Sortclass.',
].join('\n');
const DOCUMENT = [`DEFINE "${LIBRARY}"`, 'GOAL uses_lib "forall k, double (double k) = 4 * k"', 'APPLY (intro k; apply quad_is_four_times)', 'END'].join('\n');

/**
 * Issue 24 item 2 with the statement judge: a theorem stated over a trusted project's library
 * (`fixtures/coq-project`, real coqidetop) means what its text says — the clean reading sees the same
 * project library (its names; never its notations, see project-meaning.attack.test.ts) — and a host that
 * does not trust the project gives the clean reading no load path at all.
 */
describe('a statement over a trusted project library reads the same in the clean environment (real Coq)', () => {
  let root: string;
  let project: ProjectArgs | undefined;
  let trusted = true;
  let ws: WorkbenchShell;
  let channel = 0;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(ws.shell.submitLine(`${channel} ${line}`)))[0] as ShellResponse;
  const newChannel = async (): Promise<void> => {
    const [r] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    channel = (r?.RESPONSE as { ID: number }).ID;
  };

  beforeAll(async () => {
    root = await compiledCoqProject('project-meaning-');
    // A library that picks meanings: a global instance (active once loaded, imported or not) and a coercion.
    await writeFile(join(root, 'theories', 'Picks.v'), `${PICKS}\n`);
    const compiled = await runProcess({ program: 'coqc', args: ['-Q', 'theories', 'MyLib', 'theories/Picks.v'], cwd: root, timeoutMs: 120_000, sandbox: { writable: [root] } });
    expect(compiled.exitCode, compiled.stderr).toBe(0);
    project = (await readCoqProject(root))?.args;
    // The workspace's trust as the host reads it for every new prover (WorkspaceTrust.projectArgs()).
    ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, project: () => (trusted ? project : undefined) });
  }, 180_000);
  afterAll(async () => {
    await ws?.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('trusted: END finishes the theorem with no STATEMENT (same meaning)', async () => {
    await newChannel();
    expect((await send(`DEFINE "${LIBRARY}"`)).ERR).toBe('');
    expect((await send('GOAL uses_lib "forall k, double (double k) = 4 * k"')).ERR).toBe('');
    expect((await send('APPLY (intro k; apply quad_is_four_times)')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    expect(end.STATEMENT, JSON.stringify(end.STATEMENT)).toBeUndefined();
  }, 240_000);

  it('trusted: arbor batch check says verified, not verified-different-meaning', async () => {
    const shells = new CoqShells(project);
    try {
      const checked = await runCheckJob({ kind: 'check', id: 'doc', document: DOCUMENT, timeoutMs: 20_000 }, shells, () => undefined);
      expect(checked.outcome, JSON.stringify(checked.evidence)).toBe('verified');
    } finally {
      await shells.dispose();
    }
  }, 240_000);

  it('the clean reading has the project library only with the trusted load paths', async () => {
    const withProject = await cleanReading('double 2 = 4', { extraArgs: project?.args ?? [], sandbox: { readOnly: [...(project?.readOnly ?? [])] } }, [LIBRARY]);
    expect(withProject.library).toEqual([LIBRARY]);
    expect('error' in withProject, JSON.stringify(withProject)).toBe(false);
    // No trust (a web client's session before the code, or after the grant is withdrawn): no load path there.
    const without = await cleanReading('double 2 = 4', {}, [LIBRARY]);
    expect(without.library).toEqual([]);
    expect('error' in without && without.error).toMatch(/double/);
  }, 240_000);

  it('trusted: what the project\'s library puts into a statement it does not write is shown (a global instance, a coercion)', async () => {
    await newChannel();
    expect((await send('DEFINE "Require Import MyLib.Picks."')).ERR).toBe('');
    expect((await send('GOAL by_instance "forall b : bool, holds b"')).ERR).toBe('');
    expect((await send('APPLY (intro b; exact I)')).ERR).toBe('');
    const instance = await send('END');
    expect(instance.ERR).toBe('');
    expect(instance.STATEMENT?.differences.join('\n')).toMatch(/MyLib\.Picks\.any_holds/);
    expect((await send('GOAL by_coercion "forall b : bool, b"')).ERR).toBe('');
    expect((await send('APPLY (intro b; exact I)')).ERR).toBe('');
    const coercion = await send('END');
    expect(coercion.ERR).toBe('');
    expect(coercion.STATEMENT?.elaborated).toMatch(/MyLib\.Picks\.is_true_prop/);
  }, 240_000);

  it('untrusted (or no longer trusted): the document cannot require the library, and the clean reading has none', async () => {
    trusted = false;
    await newChannel();
    expect((await send(`DEFINE "${LIBRARY}"`)).ERR).toMatch(/MyLib/);
    expect((await send('GOAL "forall n : nat, n + 0 = n"')).ERR).toBe('');
    expect((await send('APPLY (intro n; rewrite <- plus_n_O; reflexivity)')).ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    expect(end.STATEMENT).toBeUndefined();
  }, 240_000);
});
