import type { ProverBackend, ProverSession, SessionOptions } from '../shell/prover-session.ts';

/**
 * Keeps `size` prover sessions started and ready, so that a new channel does not wait for a prover to
 * boot (Coq with CoqHammer loaded takes about a second). Taking a session starts its replacement.
 */
export class WarmPool {
  private readonly ready: Promise<ProverSession>[] = [];
  private disposed = false;

  constructor(
    private readonly backend: ProverBackend,
    private readonly options: SessionOptions,
    private readonly size: number,
  ) {}

  /** Starts filling the pool (at start-up: channels open their prover on first use, so none competes with it). */
  fill(): void {
    while (!this.disposed && this.ready.length < this.size) {
      const opening = this.backend.open(this.options);
      // A failed warm start is dropped; `take` then opens a session directly and reports its error.
      opening.catch(() => {
        const i = this.ready.indexOf(opening);
        if (i >= 0) this.ready.splice(i, 1);
      });
      this.ready.push(opening);
    }
  }

  async take(): Promise<ProverSession> {
    const next = this.ready.shift();
    queueMicrotask(() => this.fill());
    if (next) {
      try {
        const session = await next;
        if (session.alive !== false) return session;
        // Its prover died while it waited (killed, out of memory): a fresh one, not a crash at the first request.
        void session.dispose();
      } catch {
        // fall through to a direct start, whose error the caller sees
      }
    }
    return this.backend.open(this.options);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const pending = this.ready.splice(0);
    await Promise.all(pending.map(async (p) => (await p.catch(() => undefined))?.dispose()));
  }
}
