import { availableParallelism } from 'node:os';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import type { ParsedRequest, ShellCommand, ShellResponse } from '../../shared/protocol/shell-command.ts';
import { PROOF_COMMANDS } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { ChannelEngine, ChannelStatus, EngineResult } from './channel-engine.ts';

export interface ShellOptions {
  /**
   * Makes the engine behind a channel; `prelude` is set by the PRELUDE extension. Throwing refuses the
   * prelude: the error's message becomes the response's ERR.
   */
  createEngine: (channel: number, prelude?: string) => ChannelEngine;
  /** Open channels at most (each has its own prover); NEW_CHANNEL beyond answers an error. */
  maxChannels?: number;
  /** Requests waiting in all channels' queues at most; beyond, requests answer `busy: …` (in order). */
  maxQueued?: number;
}

/** Near the number of cores: each channel's prover wants one, and a client must not start hundreds. */
export const DEFAULT_MAX_CHANNELS = Math.max(4, availableParallelism());
export const DEFAULT_MAX_QUEUED = 10_000;

/** Everything the shell did, for transcripts and the workbench's transcript panel. */
export type ShellEvent =
  | { kind: 'request'; channel: number; text: string; time: number }
  | { kind: 'response'; response: ShellResponse; time: number }
  | { kind: 'channels'; channels: number[] };

interface Channel {
  id: number;
  engine: ChannelEngine;
  /** The tail of this channel's request queue: every request of a channel is answered in order. */
  tail: Promise<unknown>;
  /** Released (by RELEASE_CHANNEL, once served) or cancelled: requests still queued answer `bad channel`. */
  released: boolean;
  /** Stopped by CANCEL: the running request and those queued before the CANCEL answer `cancelled`. */
  cancelled: boolean;
  /** Requests of this channel not yet answered. */
  queued: number;
  /** The PRELUDE the engine was made with (a fork's prover gets the same). */
  prelude?: string;
}

/**
 * The channel multiplexer (seed 000): channel 0 exists at start; requests of one channel are answered in
 * the order they were sent — parse errors, unknown commands, `bad channel` and RELEASE_CHANNEL included —
 * and channels run in parallel. Two requests are answered at once, out of band, as documented: NEW_CHANNEL
 * (the seed calls its channel meaningless) and the CANCEL extension. A released channel stays in the table
 * as a tombstone until its queue is empty, so no later `bad channel` can overtake an earlier answer.
 */
export class Shell {
  private readonly channels = new Map<number, Channel>();
  private nextChannelId = 1;
  private readonly listeners = new Set<(event: ShellEvent) => void>();
  private readonly drainWaiters: { below: number; resolve: () => void }[] = [];
  private readonly closers: (() => Promise<void>)[] = [];
  private closed = false;
  private queuedTotal = 0;
  private readonly maxChannels: number;
  private readonly maxQueued: number;

  constructor(private readonly options: ShellOptions) {
    this.maxChannels = options.maxChannels ?? DEFAULT_MAX_CHANNELS;
    this.maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    this.open(0);
  }

  /** Splits a line into requests and dispatches each; one promise per request, in request order. */
  submitLine(line: string): Promise<ShellResponse>[] {
    return splitRequests(line).map((raw) => {
      const parsed: ParsedRequest = raw.error
        ? { channel: leadingChannel(raw.text), error: raw.error, text: raw.text }
        : parseRequest(raw.text);
      return this.dispatch(parsed);
    });
  }

  /** A line too long to read answers with one error (its content is not parsed). */
  rejectOverlong(length: number): Promise<ShellResponse> {
    return this.dispatch({ channel: 0, error: `parse error: request too long (${length} characters)`, text: '' });
  }

  onEvent(listener: (event: ShellEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Open channels (not released). */
  channelIds(): number[] {
    return [...this.channels.values()].filter((c) => !c.released).map((c) => c.id);
  }

  channelStatus(channel: number): ChannelStatus | undefined {
    const c = this.channels.get(channel);
    return c && !c.released ? c.engine.status() : undefined;
  }

  engine(channel: number): ChannelEngine | undefined {
    const c = this.channels.get(channel);
    return c && !c.released ? c.engine : undefined;
  }

  /** Requests dispatched and not yet answered, over all channels (for input flow control). */
  queued(): number {
    return this.queuedTotal;
  }

  /** Resolves once fewer than `below` requests are waiting: readers pause their input until then. */
  drained(below: number): Promise<void> {
    if (this.queuedTotal < below) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push({ below, resolve }));
  }

  /**
   * A new engine like channel `id`'s (same backend, same PRELUDE), owned by the caller and on no channel: a
   * fork's prover (state-forks.ts). Undefined for a channel that is not open.
   */
  siblingEngine(id: number): ChannelEngine | undefined {
    const c = this.channels.get(id);
    return c && !c.released ? this.options.createEngine(id, c.prelude) : undefined;
  }

  /** A new channel served by `engine` (a fork that adopted another channel's state); its id, or why not. */
  openWith(engine: ChannelEngine, prelude?: string): { id: number } | { error: string } {
    if (this.closed) return { error: 'bad channel' };
    const open = this.channelIds().length;
    if (open >= this.maxChannels) return { error: `too many channels: ${open} open (limit ${this.maxChannels}); release one first` };
    const id = this.nextChannelId++;
    const channel: Channel = { id, engine, tail: Promise.resolve(), released: false, cancelled: false, queued: 0, ...(prelude !== undefined ? { prelude } : {}) };
    this.channels.set(id, channel);
    this.emit({ kind: 'channels', channels: this.channelIds() });
    return { id };
  }

  /**
   * Runs `work` on channel `id`'s engine in the channel's turn (after the requests sent before, before those
   * sent after), without a request or an event: a fork that borrows the channel's own prover (state-forks.ts).
   */
  exclusive<T>(id: number, work: (engine: ChannelEngine) => Promise<T>): Promise<T> {
    const c = this.channels.get(id);
    if (!c || c.released) return Promise.reject(new Error('bad channel'));
    const run = c.tail.then(() => work(c.engine), () => work(c.engine));
    c.tail = run.catch(() => undefined);
    return run;
  }

  /** The PRELUDE channel `id` was made with. */
  preludeOf(id: number): string | undefined {
    return this.channels.get(id)?.prelude;
  }

  /** Runs `close` when the shell closes (what owns provers beside the channels: forks). */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** Releases every channel and its prover; pending requests still get their responses. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.closers.splice(0).map((c) => c().catch(() => undefined)));
    const all = [...this.channels.values()];
    await Promise.all(all.map(async (c) => {
      c.released = true;
      await c.engine.dispose();
      await c.tail;
    }));
    this.channels.clear();
  }

  private dispatch(request: ParsedRequest): Promise<ShellResponse> {
    this.emit({ kind: 'request', channel: request.channel, text: request.text, time: Date.now() });
    const respond = (response: ShellResponse): ShellResponse => {
      this.emit({ kind: 'response', response, time: Date.now() });
      return response;
    };
    const id = request.channel;
    if (!('error' in request)) {
      const { command } = request;
      if (command.name === 'NEW_CHANNEL') return Promise.resolve(respond(this.newChannel(id)));
      if (command.name === 'CANCEL') return this.cancel(id).then(respond);
    }
    const channel = this.channels.get(id);
    // No queue to keep order with: the channel never existed, or its release was answered already.
    if (!channel) return Promise.resolve(respond(reply(id, null, 'error' in request ? request.error : 'bad channel')));
    if (this.queuedTotal >= this.maxQueued) {
      return this.enqueue(channel, async () => reply(id, null, `busy: ${this.queuedTotal} requests are waiting (limit ${this.maxQueued})`)).then(respond);
    }
    return this.enqueue(channel, () => this.serve(channel, request)).then(respond);
  }

  /** One request of a channel, in its turn. */
  private async serve(channel: Channel, request: ParsedRequest): Promise<ShellResponse> {
    const id = channel.id;
    if (channel.cancelled) return reply(id, null, 'cancelled');
    if (channel.released) return reply(id, null, 'bad channel');
    if ('error' in request) return reply(id, null, request.error);
    const { command } = request;
    if (command.name === 'RELEASE_CHANNEL') return this.release(channel);
    if (command.name === 'PRELUDE') return this.setPrelude(channel, command.text);
    if (command.name === 'NEW_CHANNEL' || command.name === 'CANCEL') return reply(id, null, `internal error: ${command.name} is out of band`);
    const result = await channel.engine.execute(command);
    // A CANCEL that came while this ran stopped it: its answer is `cancelled`, whatever the prover said.
    if (channel.cancelled) return reply(id, null, 'cancelled');
    return engineResponse(id, command, result);
  }

  private newChannel(requestedOn: number): ShellResponse {
    if (this.closed) return reply(requestedOn, null, 'bad channel');
    const open = this.channelIds().length;
    if (open >= this.maxChannels) {
      return reply(requestedOn, null, `too many channels: ${open} open (limit ${this.maxChannels}); release one first`);
    }
    const created = this.open(this.nextChannelId++);
    return reply(requestedOn, { ID: created.id }, '');
  }

  private enqueue(channel: Channel, work: () => Promise<ShellResponse>): Promise<ShellResponse> {
    channel.queued++;
    this.queuedTotal++;
    const result = channel.tail.then(work, work).catch((err: unknown) =>
      reply(channel.id, null, `internal error: ${err instanceof Error ? err.message : String(err)}`));
    const settled = result.then(() => {
      channel.queued--;
      this.queuedTotal--;
      // A released channel leaves the table once nothing of it is waiting (see the class comment).
      if (channel.released && channel.queued === 0 && this.channels.get(channel.id) === channel) this.channels.delete(channel.id);
      this.wakeDrainWaiters();
    });
    channel.tail = settled;
    return result;
  }

  private wakeDrainWaiters(): void {
    for (let i = this.drainWaiters.length - 1; i >= 0; i--) {
      const w = this.drainWaiters[i] as { below: number; resolve: () => void };
      if (this.queuedTotal < w.below) {
        this.drainWaiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  private open(id: number, prelude?: string): Channel {
    const channel: Channel = { id, engine: this.options.createEngine(id, prelude), tail: Promise.resolve(), released: false, cancelled: false, queued: 0, ...(prelude !== undefined ? { prelude } : {}) };
    this.channels.set(id, channel);
    this.emit({ kind: 'channels', channels: this.channelIds() });
    return channel;
  }

  /** RELEASE_CHANNEL in its turn: the requests before it were answered; the ones after it answer `bad channel`. */
  private async release(channel: Channel): Promise<ShellResponse> {
    channel.released = true;
    this.emit({ kind: 'channels', channels: this.channelIds() });
    await channel.engine.dispose();
    return reply(channel.id, null, '');
  }

  /**
   * CANCEL, out of band: the channel's prover is killed now; the running request and everything queued
   * answer `cancelled` (in order); the channel is released.
   */
  private async cancel(id: number): Promise<ShellResponse> {
    const channel = this.channels.get(id);
    if (!channel || channel.released) return reply(id, null, 'bad channel');
    channel.cancelled = true;
    channel.released = true;
    this.emit({ kind: 'channels', channels: this.channelIds() });
    await channel.engine.dispose();
    if (channel.queued === 0 && this.channels.get(id) === channel) this.channels.delete(id);
    return reply(id, null, '');
  }

  private async setPrelude(channel: Channel, prelude: string): Promise<ShellResponse> {
    const old = channel.engine;
    let engine: ChannelEngine;
    try {
      engine = this.options.createEngine(channel.id, prelude);
      // The prover itself judges the prelude as it runs it (Coq: sentence by sentence): wait for its word.
      await engine.opened?.().catch(async (err: unknown) => {
        await engine.dispose();
        throw err;
      });
    } catch (err) {
      // The factory or the prover refuses preludes a backend does not allow; the channel keeps its engine.
      return reply(channel.id, null, err instanceof Error ? err.message : String(err));
    }
    channel.engine = engine;
    channel.prelude = prelude;
    await old.dispose();
    return reply(channel.id, null, '');
  }

  private emit(event: ShellEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** An engine's answer to a command as the protocol's response on `channel` (the shell's and a fork's alike). */
export function engineResponse(channel: number, command: ShellCommand, result: EngineResult): ShellResponse {
  const response = reply(channel, result.response, result.error);
  if (result.step !== undefined && PROOF_COMMANDS.has(command.name)) response.STEP = result.step;
  if (result.script !== undefined) response.SCRIPT = result.script;
  if (result.assumptions !== undefined) response.ASSUMPTIONS = result.assumptions;
  if (result.statement !== undefined) response.STATEMENT = result.statement;
  if (result.hammerReport !== undefined) response.HAMMER_REPORT = result.hammerReport;
  return response;
}

function reply(channel: number, response: unknown, error: string): ShellResponse {
  return { CHANNEL: channel, RESPONSE: response, ERR: error };
}

function leadingChannel(text: string): number {
  const m = /^\s*([0-9]{1,15})(\s|$)/.exec(text);
  return m ? Number(m[1]) : 0;
}

export type { ShellCommand };
