import type { ForkTryOutcome } from '../../shared/protocol/fork-try.ts';
import { FORK_TRY_LIMITS } from '../../shared/protocol/fork-try.ts';
import { commandSpec } from '../../shared/protocol/commands.ts';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { runForkTry } from '../shell/fork-try.ts';
import type { Shell } from '../shell/shell.ts';
import { ForkUnavailable, forksOf } from '../shell/state-forks.ts';

/** Who calls the API: an id per client (a WebSocket), and the channels it opened itself. */
export interface ApiCaller {
  id: string;
  owns(channel: number): boolean;
}

export interface ForkTarget {
  channel?: number | undefined;
  client?: string | undefined;
  uri?: string | undefined;
}

export interface ForkAccessOptions {
  shell: Shell;
  /** Channels clients opened for themselves (their NEW_CHANNELs, documents' forks, adopted forks). */
  scratch: ReadonlySet<number>;
  /** The channel of a document open in the host (undefined: not open, or not checked yet). */
  documentChannel(client: string, uri: string): number | undefined;
  /** The host's own channel (look-ups), which no client forks. */
  hostChannel(): number | undefined;
  /** Whether a channel is an open document's: clients may not end it or change its prelude around the document. */
  isDocumentChannel?(channel: number): boolean;
}

/**
 * The API's fork operations (`fork.try`, `fork.adopt`) over the shell's one fork (state-forks.ts), with what
 * an untrusted client may do: fork a document's channel or a channel nobody claims, and its own; never
 * another client's scratch channel or the host's; at most a few tries at once. Everything refused is an
 * Error whose message goes back to that client; nothing else is held up.
 */
export class ForkAccess {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: ForkAccessOptions) {}

  async try(p: ForkTarget & { step?: number | undefined; commands: string[]; endWhenProved?: boolean | undefined; deadlineMs?: number | undefined }, caller?: ApiCaller): Promise<ForkTryOutcome> {
    const channel = this.target(p, caller);
    const who = caller?.id ?? 'local';
    const running = this.inFlight.get(who) ?? 0;
    if (running >= FORK_TRY_LIMITS.inFlightPerClient) {
      throw new Error(`too many tries at once: ${running} running for this client (limit ${FORK_TRY_LIMITS.inFlightPerClient}); wait for an answer`);
    }
    this.inFlight.set(who, running + 1);
    try {
      return await runForkTry(forksOf(this.options.shell), channel, {
        commands: p.commands,
        ...(p.step !== undefined ? { step: p.step } : {}),
        ...(p.endWhenProved !== undefined ? { endWhenProved: p.endWhenProved } : {}),
        ...(p.deadlineMs !== undefined ? { deadlineMs: p.deadlineMs } : {}),
      });
    } finally {
      const left = (this.inFlight.get(who) ?? 1) - 1;
      if (left > 0) this.inFlight.set(who, left);
      else this.inFlight.delete(who);
    }
  }

  async adopt(p: ForkTarget & { step?: number | undefined }, caller?: ApiCaller): Promise<{ channel: number; step: number }> {
    const channel = this.target(p, caller);
    try {
      return await forksOf(this.options.shell).fork(channel, p.step);
    } catch (e) {
      if (e instanceof ForkUnavailable) throw new Error(e.message, { cause: e });
      throw e;
    }
  }

  /**
   * `shell.submit` from a client, for the whole line before anything runs: no request may address another
   * client's scratch channel (its NEW_CHANNEL, its forks) — else any client could drive it, REVERT it,
   * DEFINE an axiom on it or CANCEL it — and none may end a document's channel or change its PRELUDE
   * (the document's proof commands go into the document; it is restarted or closed with `document.*`).
   * A local caller (no `caller`) is trusted.
   */
  checkSubmit(line: string, caller?: ApiCaller): void {
    if (!caller) return;
    for (const request of splitRequests(line)) {
      const parsed = parseRequest(request.text);
      this.checkChannel(parsed.channel, caller);
      if ('command' in parsed && (commandSpec(parsed.command.name).endsChannel === true || parsed.command.name === 'PRELUDE')) this.checkNotDocument(parsed.channel);
    }
  }

  /**
   * `shell.release` from a client: any channel but a document's. Not only its own: the channels panel (a
   * client too) is the user's way to stop a runaway agent's prover.
   */
  checkRelease(channel: number, caller?: ApiCaller): void {
    if (caller) this.checkNotDocument(channel);
  }

  private checkChannel(channel: number, caller: ApiCaller): void {
    if (this.options.scratch.has(channel) && !caller.owns(channel)) throw new Error(`channel ${channel} belongs to another client: address a document's channel or one of your own`);
  }

  private checkNotDocument(channel: number): void {
    if (this.options.isDocumentChannel?.(channel)) throw new Error(`channel ${channel} is a document's channel: restart or close the document instead (document.restartProver, document.close)`);
  }

  /** The channel a call names, once the caller may fork it. */
  private target(p: ForkTarget, caller?: ApiCaller): number {
    let channel = p.channel;
    if (channel === undefined) {
      channel = this.options.documentChannel(p.client ?? '', p.uri ?? '');
      if (channel === undefined) throw new Error(`no checked document ${p.uri ?? ''} for client ${p.client ?? ''}`);
    }
    if (!this.options.shell.channelStatus(channel)) throw new Error(`no channel ${channel}`);
    if (channel === this.options.hostChannel()) throw new Error(`channel ${channel} is the host's own: it is not forked`);
    if (this.options.scratch.has(channel) && !caller?.owns(channel)) throw new Error(`channel ${channel} belongs to another client: fork a document's channel or one of your own`);
    return channel;
  }
}
