import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { Shell } from '../shell/shell.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { composeBackends } from '../supervisor/compose-backends.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';

/** Address-space cap of each prover a batch worker starts (as arbor-shell's default). */
const PROVER_MEMORY_MB = 4096;

/**
 * The real shell over Coq, kept warm inside a worker across jobs (one per time limit, which is a
 * property of the engine): a job opens a channel, sends its requests, and releases the channel.
 */
export class CoqShells {
  private readonly shells = new Map<number, Promise<{ shell: Shell; factory: EngineFactory }>>();

  /** The worker's trusted project (`--workspace`): its provers and the SCRIPT check's coqc get its load paths. */
  constructor(readonly project?: ProjectArgs) {}

  async open(timeoutMs: number): Promise<ShellChannel> {
    let entry = this.shells.get(timeoutMs);
    if (!entry) {
      // The one backend composition (supervisor/compose-backends.ts), as arbor-shell and the workbench use it.
      entry = composeBackends({ backend: 'coq', timeoutMs, poolSize: 1, memoryLimitMb: PROVER_MEMORY_MB, ...(this.project !== undefined ? { project: () => this.project } : {}) }).then(({ factory: composed }) => {
        const factory = composed as EngineFactory;
        return { shell: new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude), maxChannels: 64 }), factory };
      });
      this.shells.set(timeoutMs, entry);
    }
    const { shell } = await entry;
    const created = await submit(shell, 'NEW_CHANNEL');
    const id = (created.RESPONSE as { ID?: number } | null)?.ID;
    if (typeof id !== 'number') throw new Error(`NEW_CHANNEL: ${created.ERR || 'no channel'}`);
    return {
      request: (text) => submit(shell, `${id} ${text}`),
      release: async () => { await submit(shell, `${id} RELEASE_CHANNEL`); },
    };
  }

  /** Stops every prover (a worker's shutdown, or a job that overran its limit). */
  async dispose(): Promise<void> {
    const all = [...this.shells.values()];
    this.shells.clear();
    await Promise.all(all.map(async (e) => {
      const { shell, factory } = await e;
      await shell.close();
      await factory.dispose();
    }));
  }
}

/** One channel of a worker's shell. */
export interface ShellChannel {
  /** One request (its text without the channel number); resolves with its response. */
  request(text: string): Promise<ShellResponse>;
  release(): Promise<void>;
}

async function submit(shell: Shell, line: string): Promise<ShellResponse> {
  const [response] = shell.submitLine(line);
  if (!response) throw new Error(`no request in '${line.slice(0, 40)}'`);
  return response;
}
