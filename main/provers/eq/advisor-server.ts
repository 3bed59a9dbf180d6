/**
 * Arbor as an AIMLEAP advisor: a TCP server (127.0.0.1 by default) that answers every message kind
 * AIMLEAP sends (advisor-codec.ts). AIMLEAP connects once per problem file; each connection has its
 * own planner (chains found by Arbor's prover, advisor-planner.ts) and keeps the last state
 * (message 1), against which messages 2-4 are answered. Requests of one connection are answered in
 * order, one at a time (AIMLEAP waits for each reply). A malformed request closes that connection only.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { ByteReader, decodeRequest, encodeFloat, encodeTerm, Incomplete, type AdvisorRequest } from './advisor-codec.ts';
import { batchEstimates, type CursorState, moveEstimate, rewriteEstimate } from './advisor-estimator.ts';
import { AdvisorPlanner, type PlannerStats } from './advisor-planner.ts';
import type { RuleEq } from './rewrite.ts';
import type { Term, TermBank } from './term.ts';

export interface AdvisorServerOptions {
  port: number;
  host?: string;
  /** The problem's equations (its preamble), by name: AIMLEAP numbers them by name. */
  equations: readonly RuleEq[];
  bank: TermBank;
  /** Budget of Arbor's own search for a goal pair it has no chain for (ms); 0: estimates only. Default 2000. */
  searchMs?: number;
  log?: (line: string) => void;
  /** Log every request and reply as hex (for interop checks). */
  trace?: boolean;
}

export interface ConnectionStats extends PlannerStats {
  /** Requests by message kind (0-4). */
  messages: number[];
}

const hex = (bytes: ArrayLike<number>, max = 80): string => {
  const all = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return all.length > 2 * max ? `${all.slice(0, 2 * max)}…(${bytes.length} bytes)` : all;
};

const shareVariable = (m: Term, n: Term): boolean => {
  if (m.ground || n.ground) return false;
  const vars = new Set<number>();
  const walk = (t: Term, add: boolean): boolean => {
    if (t.ground) return false;
    if (t.f < 0) {
      if (add) vars.add(t.f);
      return !add && vars.has(t.f);
    }
    return t.args.some((a) => walk(a, add));
  };
  walk(m, true);
  return walk(n, false);
};

/** One AIMLEAP connection's advisor: answers requests in order, against the last state it was sent. */
export class AdvisorConnection {
  private state: CursorState | undefined;
  readonly planner: AdvisorPlanner;
  readonly messages = [0, 0, 0, 0, 0];
  private readonly byName: Map<string, RuleEq>;

  constructor(private readonly bank: TermBank, equations: readonly RuleEq[], searchMs: number) {
    this.planner = new AdvisorPlanner(bank, { equations, searchMs });
    this.byName = new Map(equations.map((e) => [e.name, e] as const));
  }

  get stats(): ConnectionStats {
    return { ...this.planner.stats, messages: [...this.messages] };
  }

  /** The reply bytes, or undefined for message 1 (no reply). */
  async reply(req: AdvisorRequest): Promise<number[] | undefined> {
    this.messages[req.kind] = (this.messages[req.kind] ?? 0) + 1;
    const after = (m1: Term, n1: Term): number | undefined => this.planner.distance(m1, n1);
    switch (req.kind) {
      case 0: {
        // AIMLEAP reads suggestions only when the sides share no variable, and keeps only ground ones.
        if (shareVariable(req.m, req.n)) return [0];
        const ks = (await this.planner.middleTerms(req.m, req.n)).filter((k) => k.ground).slice(0, 255);
        const out = [ks.length];
        for (const k of ks) encodeTerm(this.bank, k, out);
        return out;
      }
      case 1:
        this.state = { m: req.m, n: req.n, ...(req.cursor ? { cursor: req.cursor } : {}) };
        {
          const plan = this.planner.plan(req.m, req.n);
          if (plan) this.state.plan = plan;
        }
        return undefined;
      case 2:
        return [2, ...encodeFloat(this.state ? moveEstimate(this.state, req.child) : 5)];
      case 3: {
        const d = this.state ? rewriteEstimate(this.state, req.name, req.leftToRight ? 'lr' : 'rl', req.m, req.n, after(req.m, req.n)) : 5;
        return [2, ...encodeFloat(d)];
      }
      case 4: {
        const est = this.state ? batchEstimates(this.bank, this.state, req.mask, this.byName, after) : req.mask.filter((b) => b).map(() => 5);
        return [3, ...est.flatMap((d) => encodeFloat(d))];
      }
    }
  }
}

export function startAdvisorServer(options: AdvisorServerOptions): Promise<Server> {
  const { bank, equations } = options;
  const searchMs = options.searchMs ?? 2000;
  let connections = 0;
  const server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    const id = ++connections;
    const conn = new AdvisorConnection(bank, equations, searchMs);
    let buffer = new Uint8Array(0);
    let closed = false;
    let queue = Promise.resolve();
    const serve = async (): Promise<void> => {
      while (!closed) {
        const reader = new ByteReader(buffer);
        let req: AdvisorRequest;
        try {
          req = decodeRequest(bank, reader);
        } catch (err) {
          if (err instanceof Incomplete) return;
          options.log?.(`advisor: connection ${id}: closing: ${(err as Error).message}`);
          closed = true;
          socket.destroy();
          return;
        }
        if (options.trace) options.log?.(`advisor: connection ${id} <- ${hex(buffer.subarray(0, reader.pos))}`);
        buffer = buffer.slice(reader.pos);
        const reply = await conn.reply(req);
        if (reply && !closed) {
          if (options.trace) options.log?.(`advisor: connection ${id} -> ${hex(reply)}`);
          socket.write(Uint8Array.from(reply));
        }
      }
    };
    socket.on('data', (d: Buffer) => {
      const merged = new Uint8Array(buffer.length + d.length);
      merged.set(buffer);
      merged.set(d, buffer.length);
      buffer = merged;
      queue = queue.then(serve).catch((err: unknown) => {
        options.log?.(`advisor: connection ${id}: ${(err as Error).message}`);
        closed = true;
        socket.destroy();
      });
    });
    socket.on('close', () => {
      closed = true;
      const s = conn.stats;
      options.log?.(`advisor: connection ${id} closed: messages ${s.messages.map((c, k) => `${k}:${c}`).join(' ')}; searches ${s.searches}, chains ${s.chains}, middle terms ${s.middleTerms}`);
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve(server));
  });
}
