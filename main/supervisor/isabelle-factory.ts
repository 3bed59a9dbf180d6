import { IsaReplClient } from '../provers/isabelle/isa-repl-client.ts';
import { IsaReplServer } from '../provers/isabelle/isa-repl-server.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { MinilangEngine } from '../provers/isabelle/minilang-engine.ts';
import { parseImports, PolicyRefusal } from '../provers/isabelle/minilang-policy.ts';
import type { EngineFactory } from './engine-factory.ts';
import { PreludeRefused } from './engine-factory.ts';

export interface IsabelleFactoryConfig extends IsabelleServerConfig {
  /** Default limit of every Minilang command (HAMMER n: n seconds), milliseconds. */
  timeoutMs: number;
  /** The default prelude: the scratch theory's imports (theory names; default `Main`). */
  prelude?: string;
  graceMs?: number;
}

/**
 * Channels over one Isa-REPL server with Minilang's REPL (the `isabelle` backend): each channel owns a
 * session (a TCP connection) on the server, which is shared. A channel's prelude (`PRELUDE`, a project
 * file) is the imports of its scratch theory, theory names only.
 */
export function createIsabelleFactory(config: IsabelleFactoryConfig): EngineFactory {
  const server = new IsaReplServer(config);
  const defaultImports = imports(config.prelude);
  return {
    createEngine(_channel, prelude, environment) {
      if (environment !== undefined) throw new PreludeRefused(`unsupported: the isabelle backend has no environments (PRELUDE ${environment})`);
      let channelImports = defaultImports;
      if (prelude !== undefined) {
        try {
          channelImports = imports(prelude);
        } catch (err) {
          if (err instanceof PolicyRefusal) throw new PreludeRefused(err.message);
          throw err;
        }
      }
      return new MinilangEngine({
        imports: channelImports,
        timeoutMs: config.timeoutMs,
        ...(config.graceMs !== undefined ? { graceMs: config.graceMs } : {}),
        connect: async () => IsaReplClient.connect(await server.liveAddress(), server.qualifier, 60_000),
        interrupt: async (client) => {
          await IsaReplClient.killClient(await server.address(), client.clientId, 10_000);
        },
      });
    },
    dispose: () => server.dispose(),
  };
}

function imports(prelude: string | undefined): string[] {
  const names = prelude === undefined ? [] : parseImports(prelude);
  return names.length > 0 ? names : ['Main'];
}
