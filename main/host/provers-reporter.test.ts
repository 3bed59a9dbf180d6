import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Shell } from '../shell/shell.ts';
import { createApiService } from './api-service.ts';
import { createProversReporter, shellProverOptions } from './provers-reporter.ts';
import { UnavailableEngine } from './unavailable-engine.ts';
import { Workspace } from './workspace.ts';
import { readWorkspaceProject } from './workspace-project.ts';

const dirs: string[] = [];
const tempDir = async (): Promise<string> => {
  const d = await mkdtemp(join(tmpdir(), 'arbor-provers-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('the workspace project file and the user\'s prover settings', () => {
  it('reads arbor.project.json: none, valid, invalid (reported, not thrown)', async () => {
    const dir = await tempDir();
    expect(await readWorkspaceProject(dir)).toBeNull();
    await writeFile(join(dir, 'arbor.project.json'), '{"backend":"lean","prelude":"import Mathlib"}');
    expect(await readWorkspaceProject(dir)).toEqual({ path: join(dir, 'arbor.project.json'), backend: 'lean', prelude: 'import Mathlib' });
    await writeFile(join(dir, 'arbor.project.json'), '{"backend":"hol4"}');
    expect(await readWorkspaceProject(dir)).toMatchObject({ error: expect.stringMatching(/^arbor\.project\.json: backend: /) });
  });

  it('user settings override the environment for the lean and isabelle shells', () => {
    const options = shellProverOptions({ 'lean.pantograph': '/opt/p/repl', 'lean.memoryMb': 2048, 'isabelle.server': '/opt/Isa-REPL/repl_server.sh', 'lean.imports': 'bad;value' });
    expect(options.lean).toMatchObject({ pantograph: '/opt/p/repl', memoryMb: 2048 });
    expect(options.lean.imports).not.toContain('bad;value');
    expect(options.isabelle).toEqual({ serverCommand: '/opt/Isa-REPL/repl_server.sh' });
  });

  it('settings.set refuses an invalid prover setting and stores valid ones; provers.detect uses them', async () => {
    const dir = await tempDir();
    const workspace = new Workspace({ root: dir, userDir: join(dir, 'user') });
    const shell = new Shell({ createEngine: () => new UnavailableEngine('coq', 'test') });
    const service = createApiService({
      shell, workspace,
      detectProvers: createProversReporter(() => workspace.settings(), 'coq', null),
      info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
    });
    try {
      await expect(service.call('settings.set', { patch: { 'lean.memoryMb': 3 } })).rejects.toThrow(/setting lean\.memoryMb/);
      await expect(service.call('settings.set', { patch: { 'lean.projectDir': 'relative' } })).rejects.toThrow(/absolute/);
      expect(await workspace.settings()).toEqual({});
      // A program to run never comes from an API call alone (the web host has no dialog to confirm it)…
      await expect(service.call('settings.set', { patch: { 'lean.pantograph': '/bin/sh -c "touch /tmp/arbor-pwned"' } })).rejects.toThrow(/never set through this page/);
      await expect(service.call('settings.set', { patch: { 'isabelle.server': 'touch /tmp/arbor-pwned' } })).rejects.toThrow(/never set through this page/);
      // A Lake project's lakefile is a program too (`lake env` runs it), and what it prints opens the sandbox to paths.
      await expect(service.call('settings.set', { patch: { 'lean.projectDir': dir } })).rejects.toThrow(/never set through this page/);
      expect(await workspace.settings()).toEqual({});
      // …only from the user's own settings file (or the environment).
      await mkdir(join(dir, 'user'), { recursive: true });
      await writeFile(workspace.settingsPath(), JSON.stringify({ 'lean.pantograph': '/nowhere/repl' }));
      const report = await service.call('provers.detect', {}) as { detections: { backend: string; missing: string[] }[]; shellBackend: string; sandbox: { state: string } };
      expect(report.shellBackend).toBe('coq');
      // The sandbox's state travels with the report (this machine has bubblewrap).
      expect(report.sandbox.state).toBe('on');
      expect(report.detections.map((d) => d.backend)).toEqual(['coq', 'eq', 'lean', 'isabelle']);
      expect(report.detections.find((d) => d.backend === 'lean')?.missing.join('\n')).toMatch(/Pantograph not found \('\/nowhere\/repl'\)/);
      // project.read: a folder inside the workspace; outside it there is nothing to read.
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'arbor.project.json'), '{"backend":"coq","prelude":"Require Import Lia."}');
      expect(await service.call('project.read', { dir: join(dir, 'sub') })).toMatchObject({ backend: 'coq', prelude: 'Require Import Lia.' });
      expect(await service.call('project.read', { dir: tmpdir() })).toBeNull();
    } finally {
      service.dispose();
      await shell.close();
    }
  });
});
