import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { decodeMultiStream, encode } from '@msgpack/msgpack';

/** The connection ended (the peer closed it, or it broke); `reason` says how. */
export class ConnectionClosed extends Error {}
/** No value arrived within the deadline. */
export class ReadTimeout extends Error {}

/** Limits on what one frame may hold: a broken or hostile peer cannot make Arbor allocate without bound. */
const DECODE_LIMITS = { maxStrLength: 64 << 20, maxBinLength: 64 << 20, maxArrayLength: 1 << 20, maxMapLength: 1 << 20 } as const;

/**
 * A TCP connection that carries a stream of MessagePack values, as Isa-REPL speaks it: the client writes
 * values one after another (Python's `mp.packb` per value), the server answers with values; there is no
 * other framing. Values arrive in order and are handed to whoever waits (`next`).
 */
export class MsgpackConnection {
  private readonly queue: unknown[] = [];
  private waiter: { resolve: (v: unknown) => void; reject: (e: Error) => void } | undefined;
  private closedBy: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    void this.pump();
  }

  /** Connects to `host:port`; rejects with `ConnectionClosed` when nothing listens there. */
  static open(host: string, port: number, timeoutMs: number): Promise<MsgpackConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ConnectionClosed(`cannot connect to ${host}:${port}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new MsgpackConnection(socket));
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(new ConnectionClosed(`cannot connect to ${host}:${port}: ${err.message}`));
      });
    });
  }

  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  /** Writes each value as one MessagePack value (as the Python client's `_write(*args)`). */
  send(...values: unknown[]): void {
    if (this.closedBy) throw this.closedBy;
    for (const value of values) this.socket.write(encode(value));
  }

  /** The next value from the peer; rejects with `ReadTimeout` after `timeoutMs`, or `ConnectionClosed`. */
  next(timeoutMs: number): Promise<unknown> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.closedBy) return Promise.reject(this.closedBy);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new ReadTimeout(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
    });
  }

  close(): void {
    this.end(new ConnectionClosed('connection closed by Arbor'));
    this.socket.destroy();
  }

  private async pump(): Promise<void> {
    // A socket error also ends the stream below; keep it from being an unhandled 'error' event.
    this.socket.on('error', () => undefined);
    try {
      for await (const value of decodeMultiStream<undefined>(this.socket, DECODE_LIMITS)) this.deliver(value);
      this.end(new ConnectionClosed('the server closed the connection'));
    } catch (err) {
      this.end(new ConnectionClosed(`the connection broke: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  private deliver(value: unknown): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter.resolve(value);
    } else this.queue.push(value);
  }

  private end(reason: ConnectionClosed): void {
    if (this.closedBy) return;
    this.closedBy = reason;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(reason);
  }
}
