import { parseRequest } from '../../shared/protocol/parse-request.ts';
import type { ParsedRequest, ShellCommand, ShellResponse } from '../../shared/protocol/shell-command.ts';
import { PROOF_COMMANDS } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { ChannelEngine, ChannelStatus } from './channel-engine.ts';

export interface ShellOptions {
  /**
   * Makes the engine behind a channel; `prelude` is set by the PRELUDE extension. Throwing refuses the
   * prelude: the error's message becomes the response's ERR.
   */
  createEngine: (channel: number, prelude?: string) => ChannelEngine;
}

/** Everything the shell did, for transcripts and the workbench's transcript panel. */
export type ShellEvent =
  | { kind: 'request'; channel: number; text: string; time: number }
  | { kind: 'response'; response: ShellResponse; time: number }
  | { kind: 'channels'; channels: number[] };

interface Channel {
  id: number;
  engine: ChannelEngine;
  /** The tail of this channel's request queue: requests of one channel run in order. */
  tail: Promise<unknown>;
  released: boolean;
}

/**
 * The channel multiplexer (seed 000): channel 0 exists at start; requests of one channel are served in
 * order, channels in parallel. Every request gets exactly one response, whatever it contains.
 */
export class Shell {
  private readonly channels = new Map<number, Channel>();
  private nextChannelId = 1;
  private readonly listeners = new Set<(event: ShellEvent) => void>();
  private closed = false;

  constructor(private readonly options: ShellOptions) {
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

  channelIds(): number[] {
    return [...this.channels.keys()];
  }

  channelStatus(channel: number): ChannelStatus | undefined {
    return this.channels.get(channel)?.engine.status();
  }

  engine(channel: number): ChannelEngine | undefined {
    return this.channels.get(channel)?.engine;
  }

  /** Releases every channel and its prover; pending requests still get their responses. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.channels.values()];
    this.channels.clear();
    await Promise.all(all.map(async (c) => {
      c.released = true;
      await c.engine.dispose();
      await c.tail;
    }));
  }

  private dispatch(request: ParsedRequest): Promise<ShellResponse> {
    this.emit({ kind: 'request', channel: request.channel, text: request.text, time: Date.now() });
    const respond = (response: ShellResponse): ShellResponse => {
      this.emit({ kind: 'response', response, time: Date.now() });
      return response;
    };
    if ('error' in request) return Promise.resolve(respond(reply(request.channel, null, request.error)));
    const { channel: id, command } = request;
    if (command.name === 'NEW_CHANNEL') {
      if (this.closed) return Promise.resolve(respond(reply(id, null, 'bad channel')));
      const created = this.open(this.nextChannelId++);
      return Promise.resolve(respond(reply(id, { ID: created.id }, '')));
    }
    const channel = this.channels.get(id);
    if (!channel || channel.released) return Promise.resolve(respond(reply(id, null, 'bad channel')));
    if (command.name === 'RELEASE_CHANNEL') return this.release(channel).then(respond);
    if (command.name === 'PRELUDE') return this.enqueue(channel, () => this.setPrelude(channel, command.text)).then(respond);
    return this.enqueue(channel, async () => {
      if (channel.released) return reply(id, null, 'bad channel');
      const result = await channel.engine.execute(command);
      const response = reply(id, result.response, result.error);
      if (result.step !== undefined && PROOF_COMMANDS.has(command.name)) response.STEP = result.step;
      if (result.script !== undefined) response.SCRIPT = result.script;
      if (result.assumptions !== undefined) response.ASSUMPTIONS = result.assumptions;
      return response;
    }).then(respond);
  }

  private enqueue(channel: Channel, work: () => Promise<ShellResponse>): Promise<ShellResponse> {
    const result = channel.tail.then(work, work).catch((err: unknown) =>
      reply(channel.id, null, `internal error: ${err instanceof Error ? err.message : String(err)}`));
    channel.tail = result;
    return result;
  }

  private open(id: number, prelude?: string): Channel {
    const channel: Channel = { id, engine: this.options.createEngine(id, prelude), tail: Promise.resolve(), released: false };
    this.channels.set(id, channel);
    this.emit({ kind: 'channels', channels: this.channelIds() });
    return channel;
  }

  /** Kills the channel's prover at once (a running command ends with an error), then answers after the queue. */
  private async release(channel: Channel): Promise<ShellResponse> {
    channel.released = true;
    this.channels.delete(channel.id);
    this.emit({ kind: 'channels', channels: this.channelIds() });
    await channel.engine.dispose();
    await channel.tail;
    return reply(channel.id, null, '');
  }

  private async setPrelude(channel: Channel, prelude: string): Promise<ShellResponse> {
    if (channel.released) return reply(channel.id, null, 'bad channel');
    const old = channel.engine;
    try {
      channel.engine = this.options.createEngine(channel.id, prelude);
    } catch (err) {
      // The factory refuses preludes a backend does not allow; the channel keeps its engine.
      return reply(channel.id, null, err instanceof Error ? err.message : String(err));
    }
    await old.dispose();
    return reply(channel.id, null, '');
  }

  private emit(event: ShellEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function reply(channel: number, response: unknown, error: string): ShellResponse {
  return { CHANNEL: channel, RESPONSE: response, ERR: error };
}

function leadingChannel(text: string): number {
  const m = /^\s*([0-9]{1,15})(\s|$)/.exec(text);
  return m ? Number(m[1]) : 0;
}

export type { ShellCommand };
