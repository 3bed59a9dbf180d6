import { refuteStatement } from '../fidelity/refute-goal.ts';
import type { ChannelEngine } from '../shell/channel-engine.ts';
import type { BackendId, ProjectArgs, ProverBackend, SessionOptions } from '../shell/prover-session.ts';
import { TacticEngine } from '../shell/tactic-engine.ts';
import { WarmPool } from './warm-pool.ts';

export interface EngineConfig {
  backend: BackendId;
  /** The default prelude for every channel (a channel's PRELUDE replaces it for that channel). */
  prelude?: string;
  /** The workspace project file's prelude, judged by the backend in every session (SessionOptions.projectPrelude). */
  projectPrelude?: string;
  /** The user confirmed the project prelude's assumptions (SessionOptions.trustProjectAxioms). */
  trustProjectAxioms?: boolean | (() => boolean);
  timeoutMs: number;
  /** Sessions kept ready for NEW_CHANNEL. */
  poolSize: number;
  /** Passed to every session as `SessionOptions.backendOptions`. */
  backendOptions?: Record<string, string>;
  /** Address-space cap per prover process in MB (0: none). */
  memoryLimitMb?: number;
  /**
   * The user's project as trusted now (read at every new session: trust can be granted after start, in
   * the web workbench's confirmation); undefined while untrusted or absent.
   */
  project?: () => ProjectArgs | undefined;
}

/** Thrown by `createEngine` when a channel prelude is not allowed; its message is the protocol's ERR. */
export class PreludeRefused extends Error {}

export interface EngineFactory {
  createEngine(channel: number, prelude?: string, environment?: string): ChannelEngine;
  dispose(): Promise<void>;
}

/** Loads a backend module only when it is used, so a missing prover never breaks another backend. */
export async function loadBackend(id: BackendId): Promise<ProverBackend> {
  switch (id) {
    case 'coq': return (await import('../provers/coq/coq-backend.ts')).coqBackend;
    case 'eq': return (await import('../provers/eq/eq-backend.ts')).eqBackend;
    case 'lean': return (await import('../provers/lean/lean-backend.ts')).leanBackend;
    case 'isabelle': throw new Error('isabelle is a client of an Isa-REPL server: use createIsabelleFactory');
    case 'external': throw new Error('external is a pass-through backend: use createPassThroughFactory');
  }
}

/** Channels over one prover backend, with a warm pool for the default prelude. */
export function createProverEngineFactory(backend: ProverBackend, config: EngineConfig): EngineFactory {
  const options = (prelude?: string, project = config.project?.()): SessionOptions => {
    const o: SessionOptions = { timeoutMs: config.timeoutMs, refute: refuteStatement };
    if (project !== undefined) o.project = project;
    if (prelude !== undefined) o.prelude = prelude;
    if (config.projectPrelude !== undefined) o.projectPrelude = config.projectPrelude;
    if (config.trustProjectAxioms !== undefined && config.trustProjectAxioms !== false) o.trustProjectAxioms = config.trustProjectAxioms;
    if (config.backendOptions !== undefined) o.backendOptions = config.backendOptions;
    if (config.memoryLimitMb !== undefined) o.memoryLimitMb = config.memoryLimitMb;
    return o;
  };
  const poolOptions = options(config.prelude);
  const pool = new WarmPool(backend, poolOptions, config.poolSize);
  // Channels open their prover on first use (tactic-engine.ts), so the pool is what is warm at start-up:
  // the first channel takes a prover already booting, and nothing else starts beside it.
  pool.fill();
  const sameProject = (a: ProjectArgs | undefined, b: ProjectArgs | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return {
    createEngine(_channel, prelude, environment) {
      const custom = prelude !== undefined || environment !== undefined;
      const refused = (prelude !== undefined ? backend.checkPrelude?.(prelude) : undefined)
        ?? (environment === undefined ? undefined
          : backend.checkEnvironment === undefined ? `unsupported: the ${backend.id} backend has no environments (PRELUDE ${environment})` : backend.checkEnvironment(environment));
      if (refused !== undefined) throw new PreludeRefused(refused);
      return new TacticEngine({
        backend: backend.id,
        timeoutMs: config.timeoutMs,
        openSession: async () => {
          if (custom) return backend.open({ ...options(config.prelude), ...(prelude !== undefined && prelude !== '' ? { untrustedPrelude: prelude } : {}), ...(environment !== undefined ? { environment } : {}) });
          // Trust granted (or changed) after the pool started: a fresh session with the project's load paths.
          const project = config.project?.();
          if (!sameProject(project, poolOptions.project)) {
            // The pool's provers have the other load paths: none of them will ever be taken, so none is kept.
            void pool.dispose();
            return backend.open(options(config.prelude, project));
          }
          return pool.take();
        },
      });
    },
    dispose: async () => {
      await pool.dispose();
      await backend.dispose?.();
    },
  };
}
