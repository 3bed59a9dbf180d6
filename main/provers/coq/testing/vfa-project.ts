import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ShellResponse } from '../../../../shared/protocol/shell-command.ts';
import { WorkspaceTrust } from '../../../host/workspace-trust.ts';
import { createWorkbenchShell, type WorkbenchShell } from '../../../host/workbench-shell.ts';
import { runProcess } from '../../../process/process-manager.ts';
import type { ProjectArgs } from '../../../shell/prover-session.ts';

const FIXTURE = fileURLToPath(new URL('../../../../fixtures/public/vfa/', import.meta.url));
/** Under the repo's .tmp/: a sandboxed prover or coqc reads the workspace (the sandbox has no /tmp of the host). */
const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));

/** VFA's files in dependency order (Preface.v's chart: Perm → Sort, Maps → SearchTree → ADT). */
export const VFA_FILES = ['Perm.v', 'Maps.v', 'Sort.v', 'SearchTree.v', 'ADT.v'] as const;

export interface VfaWorkspace {
  root: string;
  /** The load paths the trusted `_CoqProject` gives (`-Q <root> VFA`). */
  project: ProjectArgs;
  /** The workbench's shell, whose provers get the trusted project's load paths. */
  ws: WorkbenchShell;
  /** A fresh channel of the workbench shell: what sends on it. */
  channel: () => Promise<(line: string) => Promise<ShellResponse>>;
  /** `lines` on a fresh channel, stopping at the first refusal; every response, then the channel's SCRIPT. */
  runItem: (lines: readonly string[]) => Promise<{ responses: ShellResponse[]; script: string }>;
  /** Seconds coqc took to compile the five files. */
  compileSeconds: number;
  dispose: () => Promise<void>;
}

/**
 * `fixtures/public/vfa` as a user's workspace: copied under `.tmp/`, compiled with the real `coqc` as its
 * `_CoqProject` says (`-Q . VFA`, the upstream file, each file in order, sandboxed; build products stay in the
 * copy), trusted the desktop's way (the native dialog's yes) and opened in a workbench shell.
 */
export async function openVfaWorkspace(prefix: string): Promise<VfaWorkspace> {
  await mkdir(TMP, { recursive: true });
  const root = await mkdtemp(join(TMP, prefix));
  await cp(FIXTURE, root, { recursive: true });
  const started = performance.now();
  for (const f of VFA_FILES) {
    const r = await runProcess({ program: 'coqc', args: ['-Q', '.', 'VFA', f], cwd: root, timeoutMs: 180_000, sandbox: { writable: [root] } });
    if (r.exitCode !== 0) throw new Error(`coqc -Q . VFA ${f}: ${r.stderr || r.stdout}`);
  }
  const compileSeconds = (performance.now() - started) / 1000;
  const trust = new WorkspaceTrust({ root, userDir: join(root, '.user'), askNative: async () => true });
  await trust.load();
  await trust.askAtStart();
  const project = trust.projectArgs();
  if (project === undefined) throw new Error('the VFA workspace was not trusted');
  const ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 10_000, project: () => trust.projectArgs() });
  const channel = async (): Promise<(line: string) => Promise<ShellResponse>> => {
    const [r] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    const ch = (r?.RESPONSE as { ID: number }).ID;
    return async (line) => (await Promise.all(ws.shell.submitLine(`${ch} ${line}`)))[0] as ShellResponse;
  };
  return {
    root,
    project,
    ws,
    compileSeconds,
    channel,
    runItem: async (lines) => {
      const send = await channel();
      const responses: ShellResponse[] = [];
      for (const l of lines) {
        const r = await send(l);
        responses.push(r);
        if (r.ERR !== '') break;
      }
      const script = (await send('SCRIPT')).RESPONSE as string;
      await send('RELEASE_CHANNEL');
      return { responses, script };
    },
    dispose: async () => {
      await ws.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}
