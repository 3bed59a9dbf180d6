import { availableParallelism } from 'node:os';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import type { ParsedRequest, ShellCommand, ShellResponse } from '../../shared/protocol/shell-command.ts';
import { PROOF_COMMANDS } from '../../shared/protocol/shell-command.ts';
import { isOutOfBand } from '../../shared/protocol/commands.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { formatCommand } from '../../shared/protocol/format-command.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ChannelEngine, ChannelStatus, DerivationAnswer, DerivationQuery, EngineResult } from './channel-engine.ts';
import type { CommandResult } from './command-result.ts';
import { failure, lazily, success, toShellResponse } from './command-result.ts';

export interface ShellOptions {
  /**
   * Makes the engine behind a channel; `prelude` is set by the PRELUDE extension. Throwing refuses the
   * prelude: the error's message becomes the response's ERR.
   */
  createEngine: (channel: number, prelude?: string, environment?: string) => ChannelEngine;
  /** Open channels at most (each has its own prover); NEW_CHANNEL beyond answers an error. */
  maxChannels?: number;
  /** Requests waiting in all channels' queues at most; beyond, requests answer `busy: …` (in order). */
  maxQueued?: number;
}

/** Near the number of cores: each channel's prover wants one, and a client must not start hundreds. */
export const DEFAULT_MAX_CHANNELS = Math.max(4, availableParallelism());
export const DEFAULT_MAX_QUEUED = 10_000;

/**
 * Everything the shell did, for transcripts and the workbench's transcript panel. A response carries the
 * protocol's line (what transcripts record) and the typed result it renders (what in-process readers use).
 */
export type ShellEvent =
  | { kind: 'request'; channel: number; text: string; time: number }
  | { kind: 'response'; response: ShellResponse; result: CommandResult; time: number }
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
  /** The engine of a PRELUDE still opening (its prover booting): what CANCEL and close stop besides `engine`. */
  opening?: ChannelEngine;
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

  // ---- the typed API: what clients in this process call (no protocol text on the way to the engine) ----

  /** NEW_CHANNEL: a channel of its own, or why not (`result.opened` is its id). */
  openChannel(): Promise<CommandResult> {
    return this.dispatch({ channel: 0, command: { name: 'NEW_CHANNEL' }, text: 'NEW_CHANNEL' });
  }

  /**
   * Runs one parsed command on `channel`, in the channel's order (as if its request had arrived now). `text`
   * is how the request reads in the event stream and transcripts (default: the command formatted); it is
   * never parsed.
   */
  run(channel: number, command: ShellCommand, text?: string): Promise<CommandResult> {
    return this.dispatch({ channel, command, text: `${channel} ${text ?? formatCommand(command)}` });
  }

  /** CANCEL, out of band: stops the channel's prover now and releases the channel. */
  cancel(channel: number): Promise<CommandResult> {
    return this.run(channel, { name: 'CANCEL' });
  }

  /** RELEASE_CHANNEL in the channel's turn. */
  release(channel: number): Promise<CommandResult> {
    return this.run(channel, { name: 'RELEASE_CHANNEL' });
  }

  /** The channel's tree after `step` (default: the latest), as its engine has it. */
  tree(channel: number, step?: number): TreeView | undefined {
    return this.engine(channel)?.treeView(step);
  }

  /** The derivation of an item of the channel's document, as its engine recorded it. */
  derivation(channel: number, query: DerivationQuery = {}): DerivationAnswer {
    const engine = this.engine(channel);
    if (!engine) return { unavailable: `no channel ${channel}` };
    if (!engine.derivation) return { unavailable: 'this backend records no derivation' };
    return engine.derivation(query);
  }

  // ---- the text edge: protocol lines (arbor-shell on stdio, shell.submit), built on the typed API ----

  /** Splits a line into requests and dispatches each; one promise per request, in request order. */
  submitLine(line: string): Promise<ShellResponse>[] {
    return splitRequests(line).map((raw) => {
      const parsed: ParsedRequest = raw.error
        ? { channel: leadingChannel(raw.text), error: raw.error, text: raw.text }
        : parseRequest(raw.text);
      return this.dispatch(parsed).then(toShellResponse);
    });
  }

  /**
   * A line too long to read answers with one error (its content is not parsed), on the channel its first
   * characters name (`head`: the part of the line that was kept), so a client waiting on that channel hears it.
   */
  rejectOverlong(length: number, head = ''): Promise<ShellResponse> {
    return this.dispatch({ channel: leadingChannel(head), error: `parse error: request too long (${length} characters)`, text: '' }).then(toShellResponse);
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
   * sent after), without a request or a response event: a fork that borrows the channel's own prover
   * (state-forks.ts). One `channels` event at the end: a snapshot taken meanwhile showed the channel busy,
   * and no response follows to say it is not (a renderer's busy indicator would stay on until the next one).
   */
  exclusive<T>(id: number, work: (engine: ChannelEngine) => Promise<T>): Promise<T> {
    const c = this.channels.get(id);
    if (!c || c.released) return Promise.reject(new Error('bad channel'));
    const turn = async (): Promise<T> => {
      try {
        return await work(c.engine);
      } finally {
        this.emit({ kind: 'channels', channels: this.channelIds() });
      }
    };
    const run = c.tail.then(turn, turn);
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
      await Promise.all([c.engine.dispose(), c.opening?.dispose()]);
      await c.tail;
    }));
    this.channels.clear();
  }

  private dispatch(request: ParsedRequest): Promise<CommandResult> {
    this.emit({ kind: 'request', channel: request.channel, text: request.text, time: Date.now() });
    const respond = (result: CommandResult): CommandResult => {
      // No listener, no line: in-process clients read the typed result.
      if (this.listeners.size > 0) this.emit({ kind: 'response', response: toShellResponse(result), result, time: Date.now() });
      return result;
    };
    const id = request.channel;
    if (!('error' in request)) {
      const { command } = request;
      if (command.name === 'NEW_CHANNEL') return Promise.resolve(respond(this.newChannel(id)));
      if (command.name === 'CANCEL') return this.cancelNow(id).then(respond);
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
  private async serve(channel: Channel, request: ParsedRequest): Promise<CommandResult> {
    const id = channel.id;
    if (channel.cancelled) return reply(id, null, 'cancelled');
    if (channel.released) return reply(id, null, 'bad channel');
    if ('error' in request) return reply(id, null, request.error);
    const { command } = request;
    if (command.name === 'RELEASE_CHANNEL') return this.releaseInTurn(channel);
    if (command.name === 'PRELUDE') return this.setPrelude(channel, command.text, command.environment);
    if (isOutOfBand(command)) return reply(id, null, `internal error: ${command.name} is out of band`);
    const result = await channel.engine.execute(command);
    // A CANCEL that came while this ran stopped it: its answer is `cancelled`, whatever the prover said.
    if (channel.cancelled) return reply(id, null, 'cancelled');
    return engineResult(id, command, result, channel.engine);
  }

  private newChannel(requestedOn: number): CommandResult {
    if (this.closed) return reply(requestedOn, null, 'bad channel');
    const open = this.channelIds().length;
    if (open >= this.maxChannels) {
      return reply(requestedOn, null, `too many channels: ${open} open (limit ${this.maxChannels}); release one first`);
    }
    const created = this.open(this.nextChannelId++);
    return { ...success(requestedOn, { ID: created.id }), opened: created.id };
  }

  private enqueue(channel: Channel, work: () => Promise<CommandResult>): Promise<CommandResult> {
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
  private async releaseInTurn(channel: Channel): Promise<CommandResult> {
    channel.released = true;
    this.emit({ kind: 'channels', channels: this.channelIds() });
    await channel.engine.dispose();
    return reply(channel.id, null, '');
  }

  /**
   * CANCEL, out of band: the channel's prover is killed now; the running request and everything queued
   * answer `cancelled` (in order); the channel is released.
   */
  private async cancelNow(id: number): Promise<CommandResult> {
    const channel = this.channels.get(id);
    if (!channel || channel.released) return reply(id, null, 'bad channel');
    channel.cancelled = true;
    channel.released = true;
    this.emit({ kind: 'channels', channels: this.channelIds() });
    await Promise.all([channel.engine.dispose(), channel.opening?.dispose()]);
    if (channel.queued === 0 && this.channels.get(id) === channel) this.channels.delete(id);
    return reply(id, null, '');
  }

  private async setPrelude(channel: Channel, prelude: string, environment?: string): Promise<CommandResult> {
    const old = channel.engine;
    let engine: ChannelEngine;
    try {
      engine = this.options.createEngine(channel.id, prelude, environment);
      channel.opening = engine;
      // The prover itself judges the prelude as it runs it (Coq: sentence by sentence): wait for its word.
      await engine.opened?.().catch(async (err: unknown) => {
        await engine.dispose();
        throw err;
      });
    } catch (err) {
      // The factory or the prover refuses preludes a backend does not allow; the channel keeps its engine.
      if (channel.cancelled) return reply(channel.id, null, 'cancelled');
      return reply(channel.id, null, err instanceof Error ? err.message : String(err));
    } finally {
      delete channel.opening;
    }
    // Cancelled, released or shut down while the prelude's prover booted: that prover is nobody's.
    if (channel.released || this.closed) {
      await engine.dispose();
      return reply(channel.id, null, channel.cancelled ? 'cancelled' : 'bad channel');
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

/**
 * An engine's answer to a command as the typed result on `channel` (the shell's and a fork's alike); with
 * `engine`, the tree after the step is readable from it (built when first read).
 */
export function engineResult(id: number, command: ShellCommand, result: EngineResult, engine?: ChannelEngine): CommandResult {
  const out = reply(id, null, result.error);
  // Read when read: a proof state's JSON is built only for a reader that wants it (see `lazily`).
  lazily(out, 'response', () => result.response);
  if (result.isState) out.isState = true;
  const proof = PROOF_COMMANDS.has(command.name);
  if (result.step !== undefined && proof) out.step = result.step;
  if (out.ok) {
    if (result.script !== undefined) out.script = result.script;
    if (result.assumptions !== undefined) out.assumptions = result.assumptions;
    if (result.statement !== undefined) out.statement = result.statement;
    if (result.premises !== undefined) out.premises = result.premises;
    if (engine && proof && result.step !== undefined) withTree(out, engine, result.step);
  }
  if (result.hammerReport !== undefined) out.hammerReport = result.hammerReport;
  return out;
}

/** The same answer as the protocol's response (a fork's text edge). */
export const engineResponse = (channel: number, command: ShellCommand, result: EngineResult): ShellResponse => toShellResponse(engineResult(channel, command, result));

/**
 * The engine's tree after `step`, built when first read (the stdio edge never reads it, so a step there
 * costs no tree view): readers take it as the answer arrives, before the channel's next command can run
 * (see `enqueue`), as the host's tree feed does.
 */
function withTree(result: CommandResult & { ok: true }, engine: ChannelEngine, step: number): void {
  lazily(result, 'tree', () => engine.treeView(step));
}

function reply(channel: number, response: unknown, error: string): CommandResult {
  return error === '' ? success(channel, response) : failure(channel, error, response);
}

function leadingChannel(text: string): number {
  const m = /^\s*([0-9]{1,15})(\s|$)/.exec(text);
  return m ? Number(m[1]) : 0;
}

export type { ShellCommand };
