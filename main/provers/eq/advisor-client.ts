/**
 * Arbor as the prover side of the AIMLEAP advisor protocol: connects to an advisor over TCP and
 * asks for middle terms and distance estimates. Every reply has a deadline; a late or malformed
 * reply marks the advisor broken (the stream can no longer be trusted), and the search carries on
 * without advice. Nothing here can hang the search.
 */
import { connect, type Socket } from 'node:net';
import { ByteReader, decodeFloat, encodeRequest, HASH_NAMES, Incomplete, Malformed, OPTION_SLOTS, type AdvisorRequest, type SkolemNames } from './advisor-codec.ts';
import type { Term, TermBank } from './term.ts';

export class AdvisorError extends Error {}

interface Pending {
  parse: (r: ByteReader) => unknown;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface Advisor {
  readonly broken: boolean;
  readonly lastError: string | undefined;
  /** Messages sent so far (every kind). */
  readonly sent: number;
  /** No reply is awaited past this time (Date.now() ms): a late reply counts as none. */
  deadline?: number | undefined;
  pair(m: Term, n: Term): Promise<Term[]>;
  state(vbd: number, m: Term, n: Term, cursor?: { left: boolean; pos: number[] }): void;
  batch(mask: number[]): Promise<number[]>;
  close(): void;
}

export interface AdvisorConnectOptions {
  connectTimeoutMs?: number;
  replyTimeoutMs?: number;
  /** The goal's constants as AIMLEAP's Skolem hashes (`aimleapSkolems`); default: hashes of their names. */
  names?: SkolemNames;
}

export class AdvisorClient implements Advisor {
  broken = false;
  lastError: string | undefined;
  sent = 0;
  deadline: number | undefined;
  private buffer = new Uint8Array(0);
  private pending: Pending | undefined;

  private constructor(private readonly socket: Socket, private readonly bank: TermBank, private readonly replyTimeoutMs: number, private readonly names: SkolemNames) {
    socket.on('data', (d: Buffer) => {
      const merged = new Uint8Array(this.buffer.length + d.length);
      merged.set(this.buffer);
      merged.set(d, this.buffer.length);
      this.buffer = merged;
      this.drain();
    });
    socket.on('error', (e) => this.fail(`advisor connection: ${e.message}`));
    socket.on('close', () => this.fail('advisor closed the connection'));
  }

  static connect(bank: TermBank, host: string, port: number, options: AdvisorConnectOptions = {}): Promise<AdvisorClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new AdvisorError(`advisor ${host}:${port}: connect timeout`));
      }, options.connectTimeoutMs ?? 2000);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new AdvisorClient(socket, bank, options.replyTimeoutMs ?? 1000, options.names ?? HASH_NAMES));
      });
      socket.once('error', (e) => {
        clearTimeout(timer);
        reject(new AdvisorError(`advisor ${host}:${port}: ${e.message}`));
      });
    });
  }

  private fail(message: string): void {
    if (!this.broken) {
      this.broken = true;
      this.lastError = message;
    }
    const p = this.pending;
    this.pending = undefined;
    if (p) {
      clearTimeout(p.timer);
      p.reject(new AdvisorError(message));
    }
    this.socket.destroy();
  }

  private drain(): void {
    const p = this.pending;
    if (!p) {
      if (this.buffer.length) this.fail('advisor sent bytes nobody asked for');
      return;
    }
    const reader = new ByteReader(this.buffer);
    try {
      const value = p.parse(reader);
      this.buffer = this.buffer.slice(reader.pos);
      this.pending = undefined;
      clearTimeout(p.timer);
      p.resolve(value);
    } catch (err) {
      if (err instanceof Incomplete) return;
      this.fail(`malformed advisor reply: ${(err as Error).message}`);
    }
  }

  private request<T>(req: AdvisorRequest, parse: (r: ByteReader) => T): Promise<T> {
    if (this.broken) return Promise.reject(new AdvisorError(this.lastError ?? 'advisor unavailable'));
    const wait = Math.max(0, Math.min(this.replyTimeoutMs, this.deadline === undefined ? Infinity : this.deadline - Date.now()));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(wait < this.replyTimeoutMs ? 'advisor did not reply before the deadline' : `advisor did not reply within ${this.replyTimeoutMs} ms`), wait);
      this.pending = { parse, resolve: resolve as (v: unknown) => void, reject, timer };
      this.sent++;
      this.socket.write(encodeRequest(this.bank, req, this.names));
      this.drain();
    });
  }

  pair(m: Term, n: Term): Promise<Term[]> {
    return this.request({ kind: 0, m, n }, (r) => {
      const count = r.byte();
      const out: Term[] = [];
      for (let i = 0; i < count; i++) out.push(r.term(this.bank, this.names));
      return out;
    });
  }

  state(vbd: number, m: Term, n: Term, cursor?: { left: boolean; pos: number[] }): void {
    if (this.broken) return;
    this.sent++;
    this.socket.write(encodeRequest(this.bank, { kind: 1, vbd, m, n, ...(cursor ? { cursor } : {}) }, this.names));
  }

  batch(mask: number[]): Promise<number[]> {
    if (mask.length !== OPTION_SLOTS) return Promise.reject(new AdvisorError('mask must have 177 slots'));
    const count = mask.filter((b) => b).length;
    return this.request({ kind: 4, mask }, (r) => {
      const tag = r.byte();
      if (tag !== 3) throw new Malformed(`expected reply tag 3, got ${tag}`);
      const out: number[] = [];
      for (let i = 0; i < count; i++) out.push(decodeFloat(r.byte(), r.byte()));
      return out;
    });
  }

  close(): void {
    this.broken = true;
    this.socket.destroy();
  }
}
