/**
 * Arbor as an AIMLEAP advisor: a TCP server (127.0.0.1 by default) that answers the binary protocol
 * with Arbor's own estimates. AIMLEAP connects once per problem file; each connection keeps the last
 * state (message 1) so batch requests (message 4) can be scored against the cursor position.
 * A malformed request closes that connection only.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { ByteReader, decodeRequest, encodeFloat, Incomplete, type AdvisorRequest } from './advisor-codec.ts';
import { estimateOptions, termDistance, type CursorState } from './advisor-estimator.ts';
import type { RuleEq } from './rewrite.ts';
import type { TermBank } from './term.ts';

export interface AdvisorServerOptions {
  port: number;
  host?: string;
  /** The 87 equations in protocol order (from the problem preamble), in their own bank. */
  equations: readonly RuleEq[];
  bank: TermBank;
  log?: (line: string) => void;
}

export function replyFor(bank: TermBank, req: AdvisorRequest, state: { current?: CursorState }, equations: readonly RuleEq[]): number[] | undefined {
  switch (req.kind) {
    case 0:
      return [0];
    case 1:
      state.current = { m: req.m, n: req.n, ...(req.cursor ? { cursor: req.cursor } : {}) };
      return undefined;
    case 2: {
      const d = state.current ? 1 + termDistance(state.current.m, state.current.n) / 2 : 5;
      return [2, ...encodeFloat(d)];
    }
    case 3:
      return [2, ...encodeFloat(termDistance(req.m, req.n))];
    case 4: {
      const est = state.current ? estimateOptions(bank, state.current, req.mask, equations) : req.mask.filter((b) => b).map(() => 5);
      return [3, ...est.flatMap((d) => encodeFloat(d))];
    }
  }
}

export function startAdvisorServer(options: AdvisorServerOptions): Promise<Server> {
  const { bank, equations } = options;
  const server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    let buffer = new Uint8Array(0);
    const state: { current?: CursorState } = {};
    socket.on('data', (d: Buffer) => {
      const merged = new Uint8Array(buffer.length + d.length);
      merged.set(buffer);
      merged.set(d, buffer.length);
      buffer = merged;
      for (;;) {
        const reader = new ByteReader(buffer);
        let req: AdvisorRequest;
        try {
          req = decodeRequest(bank, reader);
        } catch (err) {
          if (err instanceof Incomplete) return;
          options.log?.(`advisor: closing connection: ${(err as Error).message}`);
          socket.destroy();
          return;
        }
        buffer = buffer.slice(reader.pos);
        const reply = replyFor(bank, req, state, equations);
        if (reply) socket.write(Uint8Array.from(reply));
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve(server));
  });
}


