import type { ChannelEngine, ChannelStatus, DerivationAnswer, EngineResult } from '../shell/channel-engine.ts';
import type { BackendId } from '../shell/prover-session.ts';

/**
 * The engine behind every channel when the configured backend cannot load (not installed, not built
 * yet): the workbench still opens, edits, replays transcripts, and each proof command answers with the
 * reason instead of hanging.
 */
export class UnavailableEngine implements ChannelEngine {
  constructor(private readonly backend: BackendId, private readonly reason: string) {}

  execute(): Promise<EngineResult> {
    return Promise.resolve({ response: null, error: `unavailable: ${this.reason}` });
  }

  /** No recorded derivation: the backend did not load. */
  derivation(): DerivationAnswer {
    return { unavailable: `unavailable: ${this.reason}` };
  }

  treeView(): undefined {
    return undefined;
  }

  status(): ChannelStatus {
    return { backend: this.backend, busy: false, step: 0, finished: false };
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}
