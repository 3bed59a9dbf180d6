import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { CoqShells } from '../batch/coq-shells.ts';
import { runCheckJob } from '../batch/jobs/check-job.ts';
import { checkFidelity } from '../fidelity/check-fidelity.ts';
import { runCoqc } from '../fidelity/run-coqc.ts';
import { vFileDerivations } from '../provers/coq/v-file-derivations.ts';
import { createApiService } from './api-service.ts';
import { compiledCoqProject } from './testing/coq-project-fixture.ts';
import { createWorkbenchShell } from './workbench-shell.ts';
import type { WorkbenchShell } from './workbench-shell.ts';
import { Workspace } from './workspace.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

const PRELUDE = 'Axiom fext : forall (A B : Type) (f g : A -> B), (forall x, f x = g x) -> f = g.';
/** A document of the library's user: HAMMER must find the library's lemma (no hint names it). */
const DOCUMENT = ['DEFINE "Require Import MyLib.Defs MyLib.Lemmas."', 'GOAL uses_lib "forall k, double (double k) = 4 * k"', 'APPLY (intro k; apply quad_is_four_times)', 'END'].join('\n');

/**
 * Issue 24's project test on `fixtures/coq-project` (a `_CoqProject` and a two-file library compiled by coqc),
 * with real coqidetop and coqc: untrusted, nothing of it is used; one grant (the web's code printed on the
 * host's terminal) covers its load paths and `arbor.project.json`'s axiom; trusted, a document requires the
 * library, SEARCH finds its lemma, HAMMER's premise search finds it, the finished document's SCRIPT compiles
 * with coqc, `arbor batch check` verifies the document, fidelity reads a context that requires it, and a
 * `.v` file using it opens as derivations.
 */
describe('_CoqProject: one grant; the library from a document, SEARCH, HAMMER, coqc (real Coq)', () => {
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
  const checkDocument = async (shells: CoqShells) => {
    try {
      return await runCheckJob({ kind: 'check', id: 'doc', document: DOCUMENT, timeoutMs: 20_000 }, shells, () => undefined);
    } finally {
      await shells.dispose();
    }
  };

  beforeAll(async () => {
    root = await compiledCoqProject('coqproject-');
    userDir = join(root, '.user');
    // Options Arbor must not pass on, and a dune-project it must only mention.
    await appendFile(join(root, '_CoqProject'), `-arg "-set 'Hammer PredictPath=/bin/sh'"\n-I plugins\n`);
    await writeFile(join(root, 'dune-project'), '(lang dune 3.0)\n');
    await writeFile(join(root, 'arbor.project.json'), JSON.stringify({ backend: 'coq', prelude: PRELUDE }));
    trust = new WorkspaceTrust({ root, userDir, printCode: (line) => printed.push(line) });
    await trust.load();
    ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, project: () => trust.projectArgs() });
  }, 180_000);
  afterAll(async () => {
    await ws?.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('reads the file as Coq does; the question shows load paths, options and axioms together', () => {
    const status = trust.status();
    expect(status).toMatchObject({ trusted: false, confirm: 'terminal-code', args: ['-w', '-notation-overridden'], axioms: ['fext'], projectFile: join(root, 'arbor.project.json') });
    expect(status?.loadPaths).toEqual([expect.objectContaining({ kind: 'Q', dir: 'theories', logical: 'MyLib', exists: true })]);
    expect(status?.ignored.join('\n')).toMatch(/-arg -set: not on the allow-list/);
    expect(status?.ignored.join('\n')).toMatch(/-I plugins: OCaml plugins are native code/);
    expect(trust.projectArgs()).toBeUndefined();
    expect(trust.axiomsTrusted(PRELUDE)).toBe(false);
    expect(status?.dune).toMatch(/dune is not installed/);
  });

  it('untrusted: the library is not there — not for coqidetop, coqc, batch check or fidelity', async () => {
    await newChannel();
    expect((await send('DEFINE "Require Import MyLib.Defs."')).ERR).toMatch(/MyLib/);
    const compiled = await runCoqc('Require Import MyLib.Defs.\n', { killAfterMs: 60_000 });
    expect(compiled.ok).toBe(false);
    expect(compiled.output).toMatch(/MyLib/);
    expect((await checkDocument(new CoqShells(trust.projectArgs()))).outcome).toBe('failed');
    await expect(checkFidelity({ canonical: 'forall n, double n = n + n', candidate: 'forall m, double m = m + m', context: 'Require Import MyLib.Defs.', tiers: ['typecheck', 's0'] }, undefined, trust.projectArgs())).rejects.toThrow(/MyLib/);
  }, 240_000);

  it('a client cannot trust it by calling the API: the code printed on the host\'s terminal is needed; one yes covers both files', async () => {
    const service = createApiService({ shell: ws.shell, workspace: new Workspace({ root, userDir }), info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: root, examplesDir: root }), trust });
    await expect(service.call('project.trust', { code: '000000' })).rejects.toThrow(/no confirmation is pending/);
    await service.call('project.requestTrust', {});
    const line = printed.at(-1) ?? '';
    // The terminal's line names everything the yes grants.
    expect(line).toMatch(/-Q \S+theories MyLib/);
    expect(line).toMatch(/Coq options: -w -notation-overridden/);
    expect(line).toMatch(/trusted assumptions: fext/);
    const code = /type this code in the page: (\d{6})/.exec(line)?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '123456' ? '654321' : '123456';
    await expect(service.call('project.trust', { code: wrong })).rejects.toThrow(/wrong code/);
    expect(trust.projectArgs()).toBeUndefined();
    expect(await service.call('project.trust', { code })).toMatchObject({ trusted: true, axioms: ['fext'] });
    expect(trust.axiomsTrusted(PRELUDE)).toBe(true);
    // A session started from another prelude text never borrows this yes.
    expect(trust.axiomsTrusted(`${PRELUDE} Axiom more : False.`)).toBe(false);
    service.dispose();
    // Kept per workspace for the files as they are: a new host trusts them; a change to either asks again.
    const again = new WorkspaceTrust({ root, userDir });
    await again.load();
    expect(again.status()?.trusted).toBe(true);
    for (const file of ['_CoqProject', 'arbor.project.json']) {
      const text = await readFile(join(root, file), 'utf8');
      await writeFile(join(root, file), file === '_CoqProject' ? `${text}-Q theories Other\n` : text.replace('fext', 'fext2'));
      await again.load();
      expect(again.status()?.trusted, file).toBe(false);
      expect(again.projectArgs(), file).toBeUndefined();
      await writeFile(join(root, file), text);
      await again.load();
      expect(again.status()?.trusted, file).toBe(true);
    }
  });

  it('trusted: a document requires the library, SEARCH sees its lemma, HAMMER\'s premise search finds it, coqc compiles the SCRIPT', async () => {
    const project = trust.projectArgs();
    expect(project?.args).toEqual(['-Q', expect.stringContaining('theories'), 'MyLib', '-w', '-notation-overridden']);
    await newChannel();
    expect((await send('DEFINE "Require Import MyLib.Defs MyLib.Lemmas."')).ERR).toBe('');
    const search = await send('SEARCH double (double _)');
    expect(search.ERR).toBe('');
    expect((search.RESPONSE as { results: { name: string; module: string }[] }).results).toContainEqual(expect.objectContaining({ name: 'quad_is_four_times', module: expect.stringContaining('MyLib.Lemmas') }));
    expect((await send('GOAL uses_lib "forall k, double (double k) = 4 * k"')).ERR).toBe('');
    const hammer = await send('HAMMER 20');
    expect(hammer.ERR).toBe('');
    // `double` is sealed behind the library's signature and no hint names the lemma: the premise search found it.
    const premises = hammer.HAMMER_REPORT?.stages.find((st) => st.stage === 'premises');
    expect(premises?.detail, JSON.stringify(hammer.HAMMER_REPORT)).toMatch(/quad_is_four_times/);
    const end = await send('END');
    expect(end.ERR).toBe('');
    const script = (await send('SCRIPT')).RESPONSE as string;
    expect(script).toMatch(/Require Import MyLib\.Defs MyLib\.Lemmas/);
    // The SCRIPT check: coqc alone, sandboxed, with the trusted load paths from the one place.
    const compiled = await runCoqc(`${script}\nPrint Assumptions uses_lib.\n`, { killAfterMs: 120_000, ...(project ? { project } : {}) });
    expect(compiled.ok, compiled.output).toBe(true);
    expect(compiled.output).toMatch(/Closed under the global context/);
  }, 240_000);

  it('trusted: arbor batch check verifies the document (its shell and its coqc get the load paths); fidelity reads a context that requires the library', async () => {
    const checked = await checkDocument(new CoqShells(trust.projectArgs()));
    // coqc accepted the SCRIPT and the theorem is closed; the clean reading has the trusted project's names,
    // so the statement over the library means what it says (project-statement-meaning.test.ts).
    expect(checked.outcome, JSON.stringify(checked.evidence)).toBe('verified');
    expect(checked.evidence).toMatchObject({ theorems: ['uses_lib'], closed: 1 });
    const report = await checkFidelity({ canonical: 'forall n, double n = n + n', candidate: 'forall n, double n = n + n', context: 'Require Import MyLib.Defs.', tiers: ['typecheck', 's0'] }, undefined, trust.projectArgs());
    expect(report.verdict, JSON.stringify(report.trace)).toBe('equivalent');
    expect(report.trace.find((t) => t.tier === 'typecheck')?.outcome).toBe('passed');
  }, 300_000);

  it('a .v file of the project opens as derivations with the trusted load path', async () => {
    const text = 'Require Import MyLib.Defs MyLib.Lemmas.\nLemma twice : forall n, double n = 2 * n.\nProof.\n  intro n. rewrite double_is_sum. simpl. rewrite <- plus_n_O. reflexivity.\nQed.\n';
    const r = await vFileDerivations(text, { timeoutMs: 30_000, project: trust.projectArgs() });
    expect(r.stopped).toBeUndefined();
    expect(r.theorems.map((t) => [t.name, t.ending, t.converted.ok])).toEqual([['twice', 'Qed', true]]);
  }, 120_000);
});
