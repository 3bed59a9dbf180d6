import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { vFileDerivations } from '../provers/coq/v-file-derivations.ts';
import { createApiService } from './api-service.ts';
import { createWorkbenchShell } from './workbench-shell.ts';
import type { WorkbenchShell } from './workbench-shell.ts';
import { Workspace } from './workspace.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

const run = promisify(execFile);
/** Under the repo's .tmp/: files a sandboxed prover reads (the sandbox has no /tmp of the host). */
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));

/** `double` sealed behind a signature: automation cannot compute with it, only the library's lemmas say what it is. */
const DEFS = `Module Type DOUBLE.
  Parameter double : nat -> nat.
  Parameter double_is_sum : forall n, double n = n + n.
End DOUBLE.
Module Double : DOUBLE.
  Definition double (n : nat) := n + n.
  Lemma double_is_sum : forall n, double n = n + n. Proof. reflexivity. Qed.
End Double.
Export Double.
`;
const LEMMAS = `Require Import MyLib.Defs Lia.
Lemma quad_is_four_times : forall n, double (double n) = 4 * n.
Proof. intro n. rewrite !double_is_sum. lia. Qed.
#[export] Hint Resolve quad_is_four_times : core.
`;
const PROJECT = `# a tiny project
-Q theories MyLib
-arg -w -arg -notation-overridden
-arg "-set 'Hammer PredictPath=/bin/sh'"
-I plugins
theories/Defs.v theories/Lemmas.v
`;

/**
 * A workspace with a `_CoqProject` and a two-file library compiled by coqc: untrusted, its load path is not
 * used; trusted (the web's in-page confirmation with the code the host printed), a document requires the
 * library, SEARCH finds its lemma, HAMMER proves a goal with it, and a `.v` file using it opens as derivations.
 */
describe('_CoqProject: trust, load paths, the library from a document, SEARCH and HAMMER (real coqidetop)', () => {
  let root: string;
  let userDir: string;
  let ws: WorkbenchShell;
  let trust: WorkspaceTrust;
  const printed: string[] = [];
  let channel = 0;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(ws.shell.submitLine(`${channel} ${line}`)))[0] as ShellResponse;
  const newChannel = async (): Promise<void> => {
    const [r] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    channel = (r?.RESPONSE as { ID: number }).ID;
  };

  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    root = await mkdtemp(join(TMP, 'coqproject-'));
    userDir = join(root, '.user');
    await mkdir(join(root, 'theories'));
    await writeFile(join(root, 'theories', 'Defs.v'), DEFS);
    await writeFile(join(root, 'theories', 'Lemmas.v'), LEMMAS);
    await writeFile(join(root, '_CoqProject'), PROJECT);
    await writeFile(join(root, 'dune-project'), '(lang dune 3.0)\n');
    await run('coqc', ['-Q', 'theories', 'MyLib', 'theories/Defs.v'], { cwd: root });
    await run('coqc', ['-Q', 'theories', 'MyLib', 'theories/Lemmas.v'], { cwd: root });
    trust = new WorkspaceTrust({ root, userDir, printCode: (line) => printed.push(line) });
    await trust.load();
    ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, project: () => trust.projectArgs() });
  }, 120_000);
  afterAll(async () => {
    await ws.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('reads the file as Coq does and passes only the allow-listed options', () => {
    const status = trust.status();
    expect(status).toMatchObject({ trusted: false, confirm: 'terminal-code', args: ['-w', '-notation-overridden'] });
    expect(status?.loadPaths).toEqual([expect.objectContaining({ kind: 'Q', dir: 'theories', logical: 'MyLib', exists: true })]);
    expect(status?.ignored.join('\n')).toMatch(/-arg -set: not on the allow-list/);
    expect(status?.ignored.join('\n')).toMatch(/-I plugins: OCaml plugins are native code/);
    expect(trust.projectArgs()).toBeUndefined();
    // dune is not installed on this machine: said, not guessed at.
    expect(status?.dune).toMatch(/dune is not installed/);
  });

  it('untrusted: the library is not there', async () => {
    await newChannel();
    const r = await send('DEFINE "Require Import MyLib.Defs."');
    expect(r.ERR).toMatch(/MyLib/);
  }, 60_000);

  it('a client cannot trust it by calling the API: the code printed on the host\'s terminal is needed', async () => {
    const service = createApiService({ shell: ws.shell, workspace: new Workspace({ root, userDir }), info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: root, examplesDir: root }), trust });
    await expect(service.call('project.trust', { code: '000000' })).rejects.toThrow(/no confirmation is pending/);
    await service.call('project.requestTrust', {});
    const code = /type this code in the page: (\d{6})/.exec(printed.at(-1) ?? '')?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '123456' ? '654321' : '123456';
    await expect(service.call('project.trust', { code: wrong })).rejects.toThrow(/wrong code/);
    expect(trust.projectArgs()).toBeUndefined();
    expect(await service.call('project.trust', { code })).toMatchObject({ trusted: true });
    service.dispose();
    // Kept per workspace for the file as it is: a new host trusts it; a changed file is asked again.
    const again = new WorkspaceTrust({ root, userDir });
    await again.load();
    expect(again.status()?.trusted).toBe(true);
    const text = await readFile(join(root, '_CoqProject'), 'utf8');
    await writeFile(join(root, '_CoqProject'), `${text}-R /etc Etc\n`);
    await again.load();
    expect(again.status()?.trusted).toBe(false);
    await writeFile(join(root, '_CoqProject'), text);
  });

  it('trusted: a document requires the library, SEARCH sees its lemma, HAMMER proves with it', async () => {
    expect(trust.projectArgs()?.args).toEqual(['-Q', expect.stringContaining('theories'), 'MyLib', '-w', '-notation-overridden']);
    await newChannel();
    expect((await send('DEFINE "Require Import MyLib.Defs MyLib.Lemmas."')).ERR).toBe('');
    const search = await send('SEARCH double (double _)');
    expect(search.ERR).toBe('');
    expect((search.RESPONSE as { results: { name: string; module: string }[] }).results).toContainEqual(expect.objectContaining({ name: 'quad_is_four_times', module: expect.stringContaining('MyLib.Lemmas') }));
    expect((await send('GOAL uses_lib "forall k, double (double k) = 4 * k"')).ERR).toBe('');
    const hammer = await send('HAMMER 20');
    expect(hammer.ERR).toBe('');
    const end = await send('END');
    expect(end.ERR).toBe('');
    // `double` is sealed behind the library's signature: nothing but its lemmas can prove this (here through
    // the hint the library exports, which `auto` uses; CoqHammer's own premise selection finds `quad_is_four_times` too,
    // in about 2 minutes on this loaded machine, too slow for a test).
    expect(String(end.SCRIPT)).toMatch(/Require Import MyLib\.Defs MyLib\.Lemmas/);
    expect(String(end.SCRIPT)).toMatch(/Theorem uses_lib/);
  }, 180_000);

  it('a .v file of the project opens as derivations with the trusted load path', async () => {
    const text = 'Require Import MyLib.Defs MyLib.Lemmas.\nLemma twice : forall n, double n = 2 * n.\nProof.\n  intro n. rewrite double_is_sum. simpl. rewrite <- plus_n_O. reflexivity.\nQed.\n';
    const r = await vFileDerivations(text, { timeoutMs: 30_000, project: trust.projectArgs() });
    expect(r.stopped).toBeUndefined();
    expect(r.theorems.map((t) => [t.name, t.ending, t.converted.ok])).toEqual([['twice', 'Qed', true]]);
  }, 120_000);
});
