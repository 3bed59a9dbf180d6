import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backendChoice } from './workbench-shell.ts';
import { composeWorkbench, workbenchOptions } from './compose-workbench.ts';
import { engineConfig } from '../supervisor/compose-backends.ts';
import { UnavailableEngine } from './unavailable-engine.ts';
import { Workspace } from './workspace.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const source = (path: string): string => readFileSync(join(process.cwd(), path), 'utf8');

describe('one composition root for the workbench', () => {
  it('Electron and the web host compose through composeWorkbench, and no root builds backends itself', () => {
    for (const root of ['main/app/electron-main.ts', 'main/host/web-workbench.ts']) {
      const text = source(root);
      expect(text, root).toMatch(/composeWorkbench\(/);
      expect(text, root).not.toMatch(/createWorkbenchShell\(|new WorkbenchAgent\(|createProversReporter\(/);
    }
    // Every command and the batch workers state a backend choice; only compose-backends.ts turns it into factories.
    for (const root of ['main/cli/arbor-shell.ts', 'main/cli/arbor-mcp.ts', 'main/batch/coq-shells.ts', 'main/host/workbench-shell.ts']) {
      const text = source(root);
      expect(text, root).toMatch(/composeBackends\(/);
      expect(text, root).not.toMatch(/createProverEngineFactory\(|createIsabelleFactory\(|createPassThroughFactory\(/);
    }
  });

  it('the same settings and project give Electron (no flags) and the web (no flags) the same shell, HAMMER budget and advisor', () => {
    const settings = { backend: 'eq', timeoutSeconds: 7, 'lean.memoryMb': 2048 };
    const project = { path: '/w/arbor.project.json', prelude: 'Axiom a : nat.' };
    const electron = workbenchOptions(settings, project, {}, false);
    const web = workbenchOptions(settings, project, {}, false);
    expect(web).toEqual(electron);
    // Before, the web host ignored the user's backend and limit settings (coq, 10 s) while Electron read them.
    expect(electron).toMatchObject({ backend: 'eq', timeoutMs: 7000 });
    // The eq prelude is the project's (eq has no vernacular to judge).
    expect(engineConfig(backendChoice(electron))).toMatchObject({ backend: 'eq', timeoutMs: 7000, prelude: 'Axiom a : nat.' });
  });

  it('the project file chooses the backend, then the command\'s flag, then the setting; flags override the limit', () => {
    expect(workbenchOptions({ backend: 'eq' }, { path: 'p', backend: 'lean' }, { backend: 'coq' }, false).backend).toBe('lean');
    expect(workbenchOptions({ backend: 'eq' }, null, { backend: 'coq' }, false).backend).toBe('coq');
    expect(workbenchOptions({}, null, {}, false)).toMatchObject({ backend: 'coq', timeoutMs: 10_000 });
    expect(workbenchOptions({ timeoutSeconds: 7 }, null, { timeoutMs: 3000 }, false).timeoutMs).toBe(3000);
  });

  it('an advisor reaches HAMMER (the engines\' backend options) as in arbor-shell, not only the suggestion panel', () => {
    const options = workbenchOptions({}, null, { backend: 'eq', advisor: { host: '127.0.0.1', port: 4000 } }, false);
    expect(engineConfig(backendChoice(options)).backendOptions).toEqual({ advisor: '127.0.0.1:4000' });
  });

  it('composes a workspace: the limit from the settings sets HAMMER\'s budget, a bad project file is a problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arbor-compose-'));
    dirs.push(dir);
    const workspace = new Workspace({ root: dir, userDir: join(dir, 'user') });
    await workspace.updateSettings({ timeoutSeconds: 7 });
    await writeFile(join(dir, 'arbor.project.json'), '{"backend": 42}');
    const composed = await composeWorkbench(workspace, { createEngine: () => new UnavailableEngine('coq', 'test double') });
    try {
      expect(composed.options.timeoutMs).toBe(7000);
      expect(composed.ws.hammerSeconds).toBe(7);
      expect(composed.ws.problems.join('\n')).toMatch(/\(ignored\)/);
    } finally {
      await composed.agent.close();
      await composed.ws.dispose();
    }
  });
});
