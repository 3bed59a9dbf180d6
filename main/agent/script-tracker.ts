import { parseRequest } from '../../shared/protocol/parse-request.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { commandSpec } from '../../shared/protocol/commands.ts';
import type { PortEvent } from './shell-port.ts';

/** One accepted proof command of the channel's script, with the step it produced. */
export interface ScriptLine {
  step: number;
  /** The request without its channel id, ready to be replayed on any channel. */
  text: string;
}

/** Enough to rebuild the channel's state on another channel: prelude, print mode and the script. */
export interface ReplayPlan {
  prelude?: string;
  printMode?: string;
  lines: string[];
}

/**
 * Follows one channel's requests and responses (from whoever sends them: the editor, an agent) and keeps
 * the channel's script: the commands whose responses advanced its step (declarations and proofs of the
 * whole document), cut back by `REVERT` and by a `GOAL` that discarded an unfinished proof. Pure: it only reads events.
 */
export class ScriptTracker {
  private script: ScriptLine[] = [];
  private prelude: string | undefined;
  private printMode: string | undefined;
  /** Whether the tracker saw the proof start (a session that attached mid-proof did not). */
  private known = false;
  /** Requests of this channel still waiting for their response, in order (the shell keeps that order). */
  private readonly queued: string[] = [];
  /** Requests the shell answers out of band (NEW_CHANNEL, CANCEL): their response is the next event. */
  private immediate = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly channel: number) {}

  observe(event: PortEvent): void {
    if (event.kind === 'request') {
      if (event.channel !== this.channel) return;
      if (answeredAtOnce(event.text)) this.immediate++;
      else this.queued.push(stripChannel(event.text));
      return;
    }
    if (event.response.CHANNEL !== this.channel) return;
    if (this.immediate > 0) {
      this.immediate--;
      return;
    }
    const text = this.queued.shift();
    if (text !== undefined) this.apply(text, event.response);
  }

  lines(): ScriptLine[] {
    return this.script.map((l) => ({ ...l }));
  }

  replayPlan(): ReplayPlan {
    const plan: ReplayPlan = { lines: this.script.map((l) => l.text) };
    if (this.prelude !== undefined) plan.prelude = this.prelude;
    if (this.printMode !== undefined) plan.printMode = this.printMode;
    return plan;
  }

  /** True once the tracker has seen the channel's proof start, so its script is the whole script. */
  isComplete(): boolean {
    return this.known;
  }

  /** The step of the channel's latest state (0 before any GOAL). */
  step(): number {
    return this.script[this.script.length - 1]?.step ?? 0;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(text: string, response: ShellResponse): void {
    if (response.ERR !== '') return;
    const parsed = parseRequest(text);
    if ('error' in parsed) return;
    const name = parsed.command.name;
    if (name === 'PRELUDE') {
      // A new prelude restarts the channel's prover: the proof in progress is gone.
      this.prelude = text;
      this.script = [];
      this.known = true;
    } else if (commandSpec(name).endsChannel === true) {
      this.script = [];
      this.known = true;
    } else if (name === 'PRINT_MODE') {
      this.printMode = text;
      return;
    } else if (response.STEP === undefined) {
      return;
    } else if (commandSpec(name).level === 'document') {
      // A new item of the document lands at its STEP: an unfinished proof before it was discarded.
      // Seen from the document's first step, the script is whole.
      const step = response.STEP;
      this.script = this.script.filter((l) => l.step < step);
      this.script.push({ step, text });
      if (step === 1) this.known = true;
    } else if (!this.known) {
      // Attached mid-proof: steps without their beginning are no script.
      return;
    } else if (response.STEP > this.step()) {
      this.script.push({ step: response.STEP, text });
    } else {
      // REVERT (or STATE, which changes nothing): keep the steps up to the response's.
      const step = response.STEP;
      this.script = this.script.filter((l) => l.step <= step);
    }
    for (const listener of this.listeners) listener();
  }
}

/** Requests the shell answers out of band (NEW_CHANNEL, CANCEL); everything else, errors too, in its turn. */
function answeredAtOnce(text: string): boolean {
  const raw = splitRequests(text);
  if (raw.length !== 1) return true;
  if (raw[0]?.error !== undefined) return false;
  const parsed = parseRequest(text);
  return !('error' in parsed) && commandSpec(parsed.command.name).outOfBand === true;
}

/** The request without its leading channel id. */
export function stripChannel(text: string): string {
  return text.replace(/^\s*[0-9]+\s+/, '').trim();
}
