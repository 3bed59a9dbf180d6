import { splitCommandLine } from '../process/command-line.ts';
import { checkServerConfig, type IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { findExecutable } from '../process/find-executable.ts';
import { createLeanBackend } from '../provers/lean/lean-backend.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import type { BackendId, ProjectArgs } from '../shell/prover-session.ts';
import { createProverEngineFactory, loadBackend, type EngineConfig, type EngineFactory } from './engine-factory.ts';
import { createIsabelleFactory } from './isabelle-factory.ts';
import { createPassThroughFactory } from './pass-through-factory.ts';

/** The default limit of HAMMER, END and CRUSH, in seconds (every command and the workbench). */
export const DEFAULT_TIMEOUT_SECONDS = 10;
/** The longest limit, as HAMMER's own argument: beyond 2^31 ms Node's timers fire at once, so every step would time out. */
export const MAX_TIMEOUT_SECONDS = 3600;

/** Whether `seconds` is a limit Arbor can keep (a flag's or a setting's): finite, positive, at most an hour. */
export const isTimeoutSeconds = (seconds: number): boolean => Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS;

/**
 * What a client asks of its backend. Every composition root (arbor-shell, arbor-mcp, the workbench in
 * Electron and on the web, batch workers) states this and nothing else; `composeBackends` turns it into
 * engines, so the same choice gives the same engines, HAMMER options and prover limits everywhere.
 */
export interface BackendChoice {
  backend: BackendId;
  /** Default limit of HAMMER, END and CRUSH (and HAMMER's suggestion budget), milliseconds. */
  timeoutMs: number;
  /** Sessions kept warm for NEW_CHANNEL (default 1). */
  poolSize?: number;
  /** The user's own prelude for every channel. */
  prelude?: string;
  /** The workspace project file's prelude: Coq judges it (never trusting its axioms unless confirmed); other backends read it as prelude. */
  projectPrelude?: string;
  trustProjectAxioms?: boolean | (() => boolean);
  /** The workspace's trusted `_CoqProject` load paths (Coq only), read for every new prover. */
  project?: () => ProjectArgs | undefined;
  /** Address-space cap per prover process in MB (0: none; default the session's). */
  memoryLimitMb?: number;
  /** eq: an AIMLEAP advisor (HOST:PORT) HAMMER asks first. */
  advisor?: string;
  /** lean: the user's settings over the environment (default: the environment). */
  lean?: LeanSettings;
  /** isabelle: the Isa-REPL server, an address or the command that starts one. */
  isabelle?: IsabelleServerConfig;
  /** external: the command line of a process that speaks the channel protocol. */
  command?: string;
}

export interface ComposedBackends {
  /** Undefined when the backend cannot run here (`problems` say why). */
  factory: EngineFactory | undefined;
  problems: string[];
  /** HAMMER's budget in seconds, for clients that suggest HAMMER (the agents' portfolio). */
  hammerSeconds: number;
}

/** Where the backend is chosen: a bare shell fails loudly; the workbench keeps running and shows the problem. */
export interface ComposeOptions {
  /** Run the backend's own check (installed, version) and report instead of throwing. */
  check?: boolean;
}

/** The one way a backend becomes engines. Throws (without `check`) when the backend cannot load. */
export async function composeBackends(choice: BackendChoice, options: ComposeOptions = {}): Promise<ComposedBackends> {
  const problems: string[] = [];
  const hammerSeconds = choice.timeoutMs / 1000;
  const done = (factory: EngineFactory | undefined): ComposedBackends => ({ factory, problems, hammerSeconds });
  const preludeOption = choice.prelude !== undefined ? { prelude: choice.prelude } : {};
  switch (choice.backend) {
    case 'isabelle': {
      const server = choice.isabelle ?? {};
      const problem = checkServerConfig(server) ?? (options.check ? serverCommandProblem(server) : undefined);
      if (problem !== undefined) {
        if (!options.check) throw new Error(problem);
        problems.push(problem);
        return done(undefined);
      }
      const prelude = joinPreludes(choice);
      return done(createIsabelleFactory({ ...server, timeoutMs: choice.timeoutMs, ...(prelude !== undefined ? { prelude } : {}) }));
    }
    case 'external':
      if (choice.command === undefined) throw new Error('--backend external needs --command "…" (a process that speaks the channel protocol)');
      return done(createPassThroughFactory({ commandLine: choice.command, timeoutMs: choice.timeoutMs, ...preludeOption }));
    default:
      try {
        const backend = choice.backend === 'lean' && choice.lean ? createLeanBackend(choice.lean) : await loadBackend(choice.backend);
        if (options.check) {
          const check = await backend.check();
          problems.push(...check.problems);
          if (!check.available) return done(undefined);
        }
        return done(createProverEngineFactory(backend, engineConfig(choice)));
      } catch (err) {
        if (!options.check) throw err;
        problems.push(`backend ${choice.backend} did not load: ${(err as Error).message}`);
        return done(undefined);
      }
  }
}

/** The engine factory's configuration for a prover backend (coq, eq, lean). */
export function engineConfig(choice: BackendChoice): EngineConfig {
  const config: EngineConfig = { backend: choice.backend, timeoutMs: choice.timeoutMs, poolSize: choice.poolSize ?? 1 };
  if (choice.project !== undefined && choice.backend === 'coq') config.project = choice.project;
  if (choice.memoryLimitMb !== undefined) config.memoryLimitMb = choice.memoryLimitMb;
  if (choice.advisor !== undefined) config.backendOptions = { advisor: choice.advisor };
  // Coq judges the project prelude (`projectPrelude`); other backends have no vernacular to judge and read it as their prelude.
  if (choice.projectPrelude !== undefined && choice.backend === 'coq') {
    config.projectPrelude = choice.projectPrelude;
    if (choice.trustProjectAxioms !== undefined && choice.trustProjectAxioms !== false) config.trustProjectAxioms = choice.trustProjectAxioms;
    if (choice.prelude !== undefined) config.prelude = choice.prelude;
  } else {
    const prelude = joinPreludes(choice);
    if (prelude !== undefined) config.prelude = prelude;
  }
  return config;
}

const joinPreludes = (choice: BackendChoice): string | undefined =>
  [choice.prelude, choice.projectPrelude].filter((p) => p !== undefined).join('\n') || undefined;

/** A server command that starts nothing on PATH is a problem now, not a hang at the first GOAL. */
function serverCommandProblem(server: IsabelleServerConfig): string | undefined {
  if (server.address !== undefined) return undefined;
  let executable: string | undefined;
  try {
    executable = splitCommandLine(server.serverCommand as string)[0];
  } catch {
    executable = undefined;
  }
  if (executable !== undefined && findExecutable(executable)) return undefined;
  return `the Isa-REPL server command '${server.serverCommand}' does not start an executable on PATH: fix it on the Provers page`;
}
