import { splitCommandLine } from '../process/command-line.ts';
import { PassThroughEngine } from '../provers/external/pass-through-engine.ts';
import type { EngineFactory } from './engine-factory.ts';
import { PreludeRefused } from './engine-factory.ts';

export interface PassThroughConfig {
  /** The command line of a process that speaks the channel protocol (another arbor-shell, a prover's own shell). */
  commandLine: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  graceMs?: number;
  startupMs?: number;
  /** Default prelude of every channel (a channel's PRELUDE is appended to it). */
  prelude?: string;
}

/**
 * Channels over an external channel-protocol process (the `external` backend): one process per Arbor
 * channel, started on the channel's first command, so a crash or a runaway proof stays in its channel.
 */
export function createPassThroughFactory(config: PassThroughConfig): EngineFactory {
  const [command, ...args] = splitCommandLine(config.commandLine);
  if (command === undefined) throw new Error('the external backend needs --command "…" (the process that speaks the channel protocol)');
  return {
    createEngine(_channel, prelude, environment) {
      if (environment !== undefined) throw new PreludeRefused(`unsupported: the external backend has no environments (PRELUDE ${environment})`);
      const combined = [config.prelude, prelude].filter((p): p is string => p !== undefined).join('\n');
      return new PassThroughEngine({
        command,
        args,
        timeoutMs: config.timeoutMs,
        ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
        ...(config.env !== undefined ? { env: config.env } : {}),
        ...(config.graceMs !== undefined ? { graceMs: config.graceMs } : {}),
        ...(config.startupMs !== undefined ? { startupMs: config.startupMs } : {}),
        ...(combined !== '' ? { prelude: combined } : {}),
      });
    },
    dispose: async () => undefined,
  };
}
