import type { BackendId } from '../shell/prover-session.ts';
import { findExecutable, probeVersion } from '../provers/lean/find-executable.ts';
import { inspectLean } from '../provers/lean/lean-backend.ts';
import { leanSettingsFromEnv } from '../provers/lean/lean-config.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import { splitCommandLine } from '../process/command-line.ts';

/** What `arbor-shell --check` and the provers page show for one backend. */
export interface BackendDetection {
  backend: BackendId;
  found: boolean;
  /** Executables found, with their versions. */
  tools: { name: string; path?: string; version?: string }[];
  /** What is missing, each with the exact fix. */
  missing: string[];
}

async function tool(name: string, versionArgs: readonly string[], candidates: readonly string[] = [name]): Promise<{ name: string; path?: string; version?: string }> {
  for (const candidate of candidates) {
    const path = findExecutable(candidate);
    if (!path) continue;
    const version = await probeVersion(path, versionArgs);
    return version !== undefined ? { name: candidate, path, version } : { name: candidate, path };
  }
  return { name };
}

export async function detectCoq(): Promise<BackendDetection> {
  const idetop = await tool('coqidetop', ['-v'], ['coqidetop.opt', 'coqidetop']);
  const coqc = await tool('coqc', ['--version']);
  const missing: string[] = [];
  if (!idetop.path) missing.push('coqidetop not found: `apt-get install coq` (Debian/Ubuntu) or `opam install coq`');
  if (!coqc.path) missing.push('coqc not found (needed to check reproduction scripts): install Coq as above');
  return { backend: 'coq', found: idetop.path !== undefined, tools: [idetop, coqc], missing };
}

/** `command`: the configured channel-protocol process (the workbench's Isabelle command line), if any. */
export async function detectIsabelle(command?: string): Promise<BackendDetection> {
  const isabelle = await tool('isabelle', ['version']);
  const missing = isabelle.path ? [] : ['isabelle not found on PATH: install the Isabelle distribution and put its `bin/` on PATH; then give arbor-shell the command of its channel-protocol shell (`--backend isabelle --command "…"`)'];
  if (command === undefined) return { backend: 'isabelle', found: isabelle.path !== undefined, tools: [isabelle], missing };
  let executable: string | undefined;
  try {
    executable = splitCommandLine(command)[0];
  } catch {
    executable = undefined;
  }
  const shell = executable ? await tool(executable, ['--version']) : { name: command };
  if (!shell.path) missing.push(`the configured Isabelle command '${command}' does not start an executable on PATH: fix the Isabelle command line`);
  return { backend: 'isabelle', found: isabelle.path !== undefined && shell.path !== undefined, tools: [isabelle, shell], missing };
}

/** Pantograph's version comes from its configured command line with `--version` (and is gated), never from a bare program name. */
export async function detectLean(settings: LeanSettings = leanSettingsFromEnv()): Promise<BackendDetection> {
  const { check, pantograph } = await inspectLean(settings);
  const lean = await tool('lean', ['--version']);
  const lake = await tool('lake', ['--version']);
  return { backend: 'lean', found: check.available, tools: [lean, lake, pantograph], missing: check.problems };
}

/** The eq engine is Arbor's own (in process): always there; E prover is optional. */
export async function detectEq(): Promise<BackendDetection> {
  const eprover = await tool('eprover', ['--version']);
  return { backend: 'eq', found: true, tools: [{ name: 'arbor eq engine', path: '(built in, no executable)' }, eprover], missing: eprover.path ? [] : ['optional: eprover not found (only for the AIM comparison): `apt-get install eprover`'] };
}

/** Lean and Isabelle as configured (the workbench passes its user settings; the CLI the environment). */
export async function detectBackends(lean?: LeanSettings, isabelleCommand?: string): Promise<BackendDetection[]> {
  return Promise.all([detectCoq(), detectEq(), detectLean(lean), detectIsabelle(isabelleCommand)]);
}

/** Plain-text report, one block per backend. */
export function formatDetections(detections: readonly BackendDetection[]): string {
  return detections.map((d) => [
    `${d.backend}: ${d.found ? 'found' : 'NOT FOUND'}`,
    ...d.tools.map((t) => `  ${t.name}: ${t.path ?? 'missing'}${t.version ? ` (${t.version})` : ''}`),
    ...d.missing.map((m) => `  fix: ${m}`),
  ].join('\n')).join('\n');
}
