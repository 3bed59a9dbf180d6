import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ShellResponse } from '../../../../shared/protocol/shell-command.ts';
import { WorkspaceTrust } from '../../../host/workspace-trust.ts';
import { createWorkbenchShell, type WorkbenchShell } from '../../../host/workbench-shell.ts';
import { runProcess } from '../../../process/process-manager.ts';
import type { ProjectArgs } from '../../../shell/prover-session.ts';
import { runCoqc } from '../../../fidelity/run-coqc.ts';
import { runConverted, type ItemOutcome } from '../conformance-run.ts';
import { vToDocument } from '../v-to-document.ts';

const FIXTURE = fileURLToPath(new URL('../../../../fixtures/public/vfa/', import.meta.url));
/** Under the repo's .tmp/: a sandboxed prover or coqc reads the workspace (the sandbox has no /tmp of the host). */
const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));

/** VFA's files in dependency order (Preface.v's chart: Perm → Sort, Maps → SearchTree → ADT). */
export const VFA_FILES = ['Perm.v', 'Maps.v', 'Sort.v', 'SearchTree.v', 'ADT.v'] as const;

export interface VfaWorkspace {
  root: string;
  /** The load paths the trusted `_CoqProject` gives (`-Q <root> VFA`, or the fixture's logical name). */
  project: ProjectArgs;
  /** The workbench's shell, whose provers get the trusted project's load paths. */
  ws: WorkbenchShell;
  /** A fresh channel of the workbench shell: what sends on it. */
  channel: () => Promise<(line: string) => Promise<ShellResponse>>;
  /** `lines` on a fresh channel, stopping at the first refusal; every response, then the channel's SCRIPT. */
  runItem: (lines: readonly string[]) => Promise<{ responses: ShellResponse[]; script: string }>;
  /** Seconds coqc took to compile the files. */
  compileSeconds: number;
  dispose: () => Promise<void>;
}

/** A fixture directory of `.v` files with a `_CoqProject` `-Q . <logical>`, compiled in `files`' order. */
export interface ProjectFixture {
  /** Absolute path of the fixture directory (copied, never written). */
  fixture: string;
  /** The logical name its `_CoqProject` binds `.` to. */
  logical: string;
  /** Its files in dependency order. */
  files: readonly string[];
}

/**
 * `fixtures/public/vfa` as a user's workspace: copied under `.tmp/`, compiled with the real `coqc` as its
 * `_CoqProject` says (`-Q . VFA`, the upstream file, each file in order, sandboxed; build products stay in the
 * copy), trusted the desktop's way (the native dialog's yes) and opened in a workbench shell.
 */
export function openVfaWorkspace(prefix: string): Promise<VfaWorkspace> {
  return openProjectWorkspace({ fixture: FIXTURE, logical: 'VFA', files: VFA_FILES }, prefix);
}

/** Any `ProjectFixture` as a user's trusted workspace, the way `openVfaWorkspace` opens VFA. */
export async function openProjectWorkspace(p: ProjectFixture, prefix: string): Promise<VfaWorkspace> {
  await mkdir(TMP, { recursive: true });
  const root = await mkdtemp(join(TMP, prefix));
  await cp(p.fixture, root, { recursive: true });
  const started = performance.now();
  for (const f of p.files) {
    const r = await runProcess({ program: 'coqc', args: ['-Q', '.', p.logical, f], cwd: root, timeoutMs: 180_000, sandbox: { writable: [root] } });
    if (r.exitCode !== 0) throw new Error(`coqc -Q . ${p.logical} ${f}: ${r.stderr || r.stdout}`);
  }
  const compileSeconds = (performance.now() - started) / 1000;
  const trust = new WorkspaceTrust({ root, userDir: join(root, '.user'), askNative: async () => true });
  await trust.load();
  await trust.askAtStart();
  const project = trust.projectArgs();
  if (project === undefined) throw new Error(`the ${p.logical} workspace was not trusted`);
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

/**
 * A `.v` file's text as one Arbor document (the conformance suite's conversion, `PRELUDE bare`) on a fresh channel of
 * the workspace's shell, then `coqc` in the project on its SCRIPT; one summary line, and one per refusal (the first `shown`).
 */
export async function runAsDocument(w: VfaWorkspace, file: string, text: string, summary: string[], shown = Infinity): Promise<{ outcomes: ItemOutcome[]; coqc: { ok: boolean; output: string } }> {
  const send = await w.channel();
  const bare = await send('PRELUDE bare');
  if (bare.ERR !== '') throw new Error(`PRELUDE bare: ${bare.ERR}`);
  const outcomes = await runConverted(vToDocument(text), send);
  const script = (await send('SCRIPT')).RESPONSE as string;
  await send('RELEASE_CHANNEL');
  const coqc = await runCoqc(script, { killAfterMs: 300_000, project: w.project });
  const theorems = outcomes.filter((o) => o.kind === 'proof');
  summary.push(`${file} as a document: ${outcomes.length} items, theorems ${theorems.filter((o) => o.result === 'proved').length}/${theorems.length} proved, declarations ${outcomes.filter((o) => o.result === 'declared').length}, skipped ${outcomes.filter((o) => o.result === 'skipped').length}, refused ${outcomes.filter((o) => o.result === 'refused').length}; coqc on SCRIPT: ${coqc.ok ? 'accepted' : 'refused'}`);
  for (const o of outcomes.filter((x) => x.result === 'refused').slice(0, shown)) summary.push(`  refused l.${o.line}${o.name ? ` ${o.name}` : ''}: ${(o.reason ?? '').slice(0, 160)}`);
  return { outcomes, coqc };
}
