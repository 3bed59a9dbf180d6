import { BACKEND_TESTED } from '../../shared/settings/backend-tested.ts';
import { describeSandbox, SANDBOX_EXCEPTIONS, type SandboxStatus } from '../../shared/settings/sandbox-status.ts';
import type { BackendId } from '../shell/prover-session.ts';
import { findExecutable, probeVersion } from '../process/find-executable.ts';
import { inspectLean } from '../provers/lean/lean-backend.ts';
import { leanSettingsFromEnv } from '../provers/lean/lean-config.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import { splitCommandLine } from '../process/command-line.ts';
import { checkServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { IsaReplClient, parseAddress } from '../provers/isabelle/isa-repl-client.ts';
import type { ServerAddress } from '../provers/isabelle/isa-repl-client.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';

/** How long `--check` waits for a configured Isa-REPL server's `heartbeat`. */
const ISABELLE_HEARTBEAT_MS = 3_000;

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

/**
 * The isabelle backend is a client of an Isa-REPL server (github.com/xqyww123/Isa-REPL) with Isabelle/Minilang
 * (github.com/xqyww123/Isa-Mini): found when a server is configured — an address that answers `heartbeat`, or a
 * command that starts one and is on PATH. `isabelle` on PATH is reported for information.
 */
export async function detectIsabelle(server: IsabelleServerConfig = {}): Promise<BackendDetection> {
  const isabelle = await tool('isabelle', ['version']);
  const missing: string[] = [];
  if (!isabelle.path) missing.push('isabelle not found on PATH: install the Isabelle distribution (bin/ on PATH), then Isa-REPL and Isa-Mini into it as their READMEs say');
  const problem = checkServerConfig(server);
  if (problem !== undefined) {
    missing.push(`${problem}; the server must have Minilang (Isa-Mini) installed`);
    return { backend: 'isabelle', found: false, tools: [isabelle], missing };
  }
  if (server.address !== undefined) {
    const tools = [isabelle, { name: 'Isa-REPL server (address)', path: server.address }];
    // A server the user runs is asked Isa-REPL's `heartbeat` (it answers and closes): an address where nothing
    // answers is not a backend that is found.
    try {
      await IsaReplClient.heartbeat(parseAddress(server.address) as ServerAddress, ISABELLE_HEARTBEAT_MS);
    } catch (err) {
      missing.push(`the Isa-REPL server at ${server.address} does not answer (${(err as Error).message}): start it there (Isa-REPL's repl_server.sh ${server.address} HOL OUTPUT_DIR, with Minilang installed) or fix the address (ARBOR_ISABELLE_ADDRESS, --isabelle-address, the Provers page)`);
      return { backend: 'isabelle', found: false, tools, missing };
    }
    return { backend: 'isabelle', found: true, tools, missing };
  }
  let executable: string | undefined;
  try {
    executable = splitCommandLine(server.serverCommand as string)[0];
  } catch {
    executable = undefined;
  }
  const found = executable !== undefined ? findExecutable(executable) : undefined;
  if (!found) missing.push(`the Isa-REPL server command '${server.serverCommand}' does not start an executable on PATH: fix it (e.g. /path/to/Isa-REPL/repl_server.sh)`);
  return { backend: 'isabelle', found: found !== undefined, tools: [isabelle, { name: 'Isa-REPL server (command)', ...(found ? { path: found } : {}) }], missing };
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
export async function detectBackends(lean?: LeanSettings, isabelle: IsabelleServerConfig = isabelleServerFromEnv()): Promise<BackendDetection[]> {
  return Promise.all([detectCoq(), detectEq(), detectLean(lean), detectIsabelle(isabelle)]);
}

/** The CLI's Isa-REPL server: ARBOR_ISABELLE_ADDRESS, else ARBOR_ISABELLE_SERVER (the workbench passes the user's settings). */
export function isabelleServerFromEnv(env: NodeJS.ProcessEnv = process.env): IsabelleServerConfig {
  const address = env.ARBOR_ISABELLE_ADDRESS?.trim();
  if (address) return { address };
  const serverCommand = env.ARBOR_ISABELLE_SERVER?.trim();
  return serverCommand ? { serverCommand } : {};
}

/** The sandbox's line of `--check`, with what it does not cover. */
export function formatSandbox(status: SandboxStatus): string {
  return [describeSandbox(status), ...SANDBOX_EXCEPTIONS.map((e) => `  not sandboxed: ${e}`)].join('\n');
}

/** Plain-text report, one block per backend. */
export function formatDetections(detections: readonly BackendDetection[]): string {
  return detections.map((d) => [
    `${d.backend}: ${d.found ? 'found' : 'NOT FOUND'}`,
    ...d.tools.map((t) => `  ${t.name}: ${t.path ?? 'missing'}${t.version ? ` (${t.version})` : ''}`),
    ...d.missing.map((m) => `  fix: ${m}`),
    ...(BACKEND_TESTED[d.backend] ? [`  tested: ${BACKEND_TESTED[d.backend]}`] : []),
  ].join('\n')).join('\n');
}
