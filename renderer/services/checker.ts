import type { StoreApi } from 'zustand';
import type { CheckedLine } from '../../shared/checking/checked-lines.ts';
import { addressLine, commandLinesBetween, firstStaleLine, recheckTarget, retractFrom } from '../../shared/checking/checked-lines.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { ArborState } from '../store/store.ts';
import { preludeRequest } from './project-prelude.ts';

export interface CheckerDeps {
  store: StoreApi<ArborState>;
  submit: (line: string) => Promise<ShellResponse[]>;
  /** The document's current lines (from its Monaco model). */
  lines: (uri: string) => readonly string[] | undefined;
  /** How long typing must pause before an edited region is re-checked. */
  recheckDelayMs?: number;
  /** The PRELUDE of a new channel for this document (its folder's project file); throws to refuse checking. */
  prelude?: (uri: string) => Promise<string | undefined>;
}

/**
 * Proof-General-style checking of editor documents, each on its own shell channel. The checked region
 * is a prefix of the document; every command line in it is recorded with the steps before and after it,
 * so an edit at line k sends one `REVERT` to the step before k and re-sends only lines ≥ k.
 * Operations on one document run one after another; an edit or cancel stops a running sequence after
 * its current command (`generation`).
 */
export class Checker {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly generations = new Map<string, number>();
  private readonly recheckTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly pendingTargets = new Map<string, number>();

  constructor(private readonly deps: CheckerDeps) {}

  private get state(): ArborState {
    return this.deps.store.getState();
  }

  private entries(uri: string): CheckedLine[] {
    return this.state.checking[uri]?.entries ?? [];
  }

  /** The last checked line (0: nothing checked). */
  checkedEnd(uri: string): number {
    return this.entries(uri).at(-1)?.line ?? 0;
  }

  stepForward(uri: string): Promise<void> {
    const lines = this.deps.lines(uri) ?? [];
    const next = commandLinesBetween(lines, this.checkedEnd(uri) + 1, lines.length)[0];
    return next === undefined ? Promise.resolve() : this.checkThrough(uri, next);
  }

  stepBack(uri: string): Promise<void> {
    const last = this.entries(uri).at(-1);
    this.bump(uri);
    return last ? this.enqueue(uri, () => this.retract(uri, last.line)) : Promise.resolve();
  }

  runAll(uri: string): Promise<void> {
    return this.checkThrough(uri, this.deps.lines(uri)?.length ?? 0);
  }

  /** Check through `line`, or retract to it when it is inside the checked region. */
  runTo(uri: string, line: number): Promise<void> {
    if (line > this.checkedEnd(uri)) return this.checkThrough(uri, line);
    this.bump(uri);
    return this.enqueue(uri, () => this.retract(uri, line + 1));
  }

  checkThrough(uri: string, target: number): Promise<void> {
    const gen = this.bump(uri);
    return this.enqueue(uri, () => this.run(uri, target, gen));
  }

  /**
   * The document changed from `firstLine` on, adding `lineDelta` lines. Retracts at once (so the
   * checked region never covers edited text) and re-checks the old region after a pause in typing.
   */
  edited(uri: string, firstLine: number, lineDelta: number): Promise<void> {
    const check = this.state.checking[uri];
    const running = check?.running;
    // An interrupted run is resumed as far as it was going (its target), like the checked region.
    const oldEnd = Math.max(this.checkedEnd(uri), running && running.line >= firstLine ? check?.target ?? running.line : 0);
    const pending = this.pendingTargets.get(uri);
    const target = recheckTarget(Math.max(oldEnd, pending ?? 0), firstLine, lineDelta);
    if (running && running.line >= firstLine) {
      // The running command's answer no longer matters: stop it now rather than wait for it (a HAMMER can
      // take a minute), keeping what was checked above the edit.
      this.state.setCheck(uri, { entries: this.entries(uri).filter((e) => e.line < firstLine) });
      void this.restartProver(uri, `Edited at line ${firstLine}, above the running line ${running.line}`);
    }
    this.bump(uri);
    const done = this.enqueue(uri, () => this.retract(uri, firstLine));
    const error = this.state.checking[uri]?.error;
    if (error && error.line >= firstLine) this.state.setCheck(uri, { error: undefined });
    if (target >= firstLine && (oldEnd >= firstLine || pending !== undefined)) {
      this.pendingTargets.set(uri, target);
      clearTimeout(this.recheckTimers.get(uri));
      this.recheckTimers.set(uri, setTimeout(() => {
        this.pendingTargets.delete(uri);
        this.recheckTimers.delete(uri);
        void this.checkThrough(uri, Math.min(target, this.deps.lines(uri)?.length ?? target));
      }, this.deps.recheckDelayMs ?? 600));
    }
    return done;
  }

  /**
   * Stop a running command: the channel is released (its prover killed at once), a fresh channel
   * opened, and the checked lines replayed on it so the document stays checked where it was.
   */
  async cancel(uri: string): Promise<void> {
    if (!this.state.checking[uri]?.running) return;
    await this.restartProver(uri, 'Cancelled');
  }

  /**
   * A fresh prover for the document (the channels panel's Restart): its channel is released and the
   * checked lines are replayed on a new one, so nothing checked is lost.
   */
  async restartProver(uri: string, why = 'Restarted'): Promise<void> {
    this.bump(uri);
    this.clearRecheck(uri);
    const doc = this.state.documents.docs[uri];
    if (doc?.channel === undefined) return;
    const old = doc.channel;
    this.state.patchDocument(uri, { channel: undefined });
    // CANCEL, not RELEASE_CHANNEL: a release waits for the running command; this must stop it now.
    await this.deps.submit(`${old} CANCEL`);
    this.state.forgetChannel(old);
    this.state.addMessage('info', `${why}: channel ${old} released; replaying the checked lines on a new channel.`);
    await this.enqueue(uri, () => this.replay(uri));
  }

  /** Forget the proof: a new channel, nothing checked. */
  restart(uri: string): Promise<void> {
    this.bump(uri);
    this.clearRecheck(uri);
    return this.enqueue(uri, async () => {
      await this.resetChannel(uri);
      this.state.clearCheck(uri);
    });
  }

  private clearRecheck(uri: string): void {
    clearTimeout(this.recheckTimers.get(uri));
    this.recheckTimers.delete(uri);
    this.pendingTargets.delete(uri);
  }

  private bump(uri: string): number {
    const gen = (this.generations.get(uri) ?? 0) + 1;
    this.generations.set(uri, gen);
    return gen;
  }

  private enqueue(uri: string, op: () => Promise<void>): Promise<void> {
    const run = (this.queues.get(uri) ?? Promise.resolve()).then(op).catch((err: unknown) => {
      this.state.addMessage('error', `checking failed: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.queues.set(uri, run);
    return run;
  }

  private async channel(uri: string): Promise<number> {
    const doc = this.state.documents.docs[uri];
    if (doc?.channel !== undefined) return doc.channel;
    // Asked before the channel exists, so a refused project leaves no channel behind.
    const prelude = await this.deps.prelude?.(uri);
    const [response] = await this.deps.submit('NEW_CHANNEL');
    const id = (response?.RESPONSE as { ID?: number } | null)?.ID;
    if (typeof id !== 'number') throw new Error(`cannot open a channel: ${response?.ERR ?? 'no response'}`);
    if (prelude !== undefined) {
      const [set] = await this.deps.submit(preludeRequest(id, prelude));
      if (set?.ERR) {
        await this.deps.submit(`${id} RELEASE_CHANNEL`);
        throw new Error(`the project's prelude was refused: ${set.ERR}`);
      }
    }
    this.state.patchDocument(uri, { channel: id });
    return id;
  }

  private async resetChannel(uri: string): Promise<void> {
    const doc = this.state.documents.docs[uri];
    if (doc?.channel !== undefined) {
      const old = doc.channel;
      this.state.patchDocument(uri, { channel: undefined });
      // CANCEL, not RELEASE_CHANNEL: a release waits for the running command; this must stop it now.
      await this.deps.submit(`${old} CANCEL`);
      this.state.forgetChannel(old);
    }
    await this.channel(uri);
  }

  private async run(uri: string, target: number, gen: number): Promise<void> {
    this.state.setCheck(uri, { error: undefined, target });
    try {
      // Before sending anything new, drop checked lines whose text changed behind our back.
      const stale = firstStaleLine(this.entries(uri), this.deps.lines(uri) ?? []);
      if (stale !== undefined) await this.retract(uri, stale);
      while (this.generations.get(uri) === gen) {
        const lines = this.deps.lines(uri) ?? [];
        const next = commandLinesBetween(lines, this.checkedEnd(uri) + 1, target)[0];
        if (next === undefined) break;
        if (!(await this.checkLine(uri, next, lines[next - 1] as string, gen))) break;
      }
    } finally {
      this.state.setCheck(uri, { running: undefined, target: undefined });
    }
  }

  /** Sends one line's requests one at a time (a failed request must not let the next one run). */
  private async checkLine(uri: string, line: number, text: string, gen: number): Promise<boolean> {
    const channel = await this.channel(uri);
    const stepBefore = this.entries(uri).at(-1)?.stepAfter ?? 0;
    let stepAfter = stepBefore;
    this.state.setCheck(uri, { running: { line, since: Date.now() } });
    let error: string | undefined;
    for (const request of splitRequests(text)) {
      const [response] = await this.deps.submit(addressLine([request], channel));
      if (!response) continue;
      if (response.ERR) {
        error = response.ERR;
        break;
      }
      if (response.STEP !== undefined) stepAfter = response.STEP;
    }
    if (this.generations.get(uri) !== gen && this.state.documents.docs[uri]?.channel !== channel) {
      // Cancelled under our feet (the channel was released), whatever the answer: whoever cancelled takes over.
      return false;
    }
    if (error !== undefined) {
      // Undo what the line's earlier requests did: the checked region ends before this line.
      if (stepAfter !== stepBefore) {
        if (stepBefore >= 1) await this.deps.submit(`${channel} REVERT ${stepBefore}`);
        else await this.resetChannel(uri);
      }
      this.state.setCheck(uri, { error: { line, message: error } });
      this.state.addMessage('error', `line ${line}: ${error}`);
      return false;
    }
    this.state.setCheck(uri, { entries: [...this.entries(uri), { line, text, stepBefore, stepAfter }] });
    return true;
  }

  private async retract(uri: string, line: number): Promise<void> {
    const entries = this.entries(uri);
    const stale = firstStaleLine(entries, this.deps.lines(uri) ?? []);
    const from = Math.min(line, stale ?? Infinity);
    const r = retractFrom(entries, from);
    if (r.action.kind === 'none') return;
    const doc = this.state.documents.docs[uri];
    if (r.action.kind === 'revert' && doc?.channel !== undefined) {
      const [response] = await this.deps.submit(`${doc.channel} REVERT ${r.action.step}`);
      if (response?.ERR) {
        this.state.addMessage('error', `REVERT ${r.action.step}: ${response.ERR}; restarting the proof`);
        await this.resetChannel(uri);
        this.state.setCheck(uri, { entries: [] });
        return;
      }
    } else {
      await this.resetChannel(uri);
    }
    this.state.setCheck(uri, { entries: r.kept });
  }

  private async replay(uri: string): Promise<void> {
    const entries = this.entries(uri);
    this.state.setCheck(uri, { entries: [] });
    await this.channel(uri);
    const gen = this.generations.get(uri) ?? 0;
    try {
      for (const e of entries) {
        if (this.generations.get(uri) !== gen) return;
        if (!(await this.checkLine(uri, e.line, e.text, gen))) return;
      }
    } finally {
      this.state.setCheck(uri, { running: undefined });
    }
  }
}
