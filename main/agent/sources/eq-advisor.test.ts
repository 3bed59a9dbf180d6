import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { ByteReader, decodeRequest, encodeTerm } from '../../provers/eq/advisor-codec.ts';
import { AdvisorConnection } from '../../provers/eq/advisor-server.ts';
import { parseArticle } from '../../provers/eq/article.ts';
import { DEFAULT_PRELUDE } from '../../provers/eq/default-prelude.ts';
import { SYM, TermBank } from '../../provers/eq/term.ts';
import type { SourceContext } from './suggestion-source.ts';
import { eqAdvisor } from './eq-advisor.ts';

const contextFor = (goal: string, hyps: { name: string; expr: string }[] = []): SourceContext => ({
  tree: { id: 0, kind: 'leaf', goal, ctxt: { vars: [], hyps: [] }, status: 'open', step: 1 } as unknown as SourceContext['tree'],
  current: { id: 0, goal, vars: [], hyps, proved: false, depth: 0 },
  stateText: '', contextText: '', historyText: '', structureText: '',
});

describe('eq-advisor source', () => {
  it('ranks the rewrites of an equation goal by Arbor\'s distance estimate, as RULE commands', async () => {
    const proposals = await eqAdvisor({ limit: 5 }).propose(contextFor('c \\ (c * (e * d)) = d'));
    expect(proposals).toHaveLength(5);
    expect(proposals[0]).toMatchObject({ commands: ['RULE b1'], estimate: 1 });
    expect(proposals.map((p) => p.commands[0])).toContain('RULE lid');
    const estimates = proposals.map((p) => p.estimate as number);
    expect([...estimates].sort((a, b) => a - b)).toEqual(estimates);
    expect(proposals[0]?.reason).toContain('e * d = d');
  });

  it('names a position when the bare rule would rewrite elsewhere, and uses HAVE lemmas', async () => {
    const proposals = await eqAdvisor().propose(contextFor('(e * c) * (e * d) = c * d', [{ name: 'h1', expr: 'x * y = y * x' }]));
    const commands = proposals.flatMap((p) => p.commands);
    expect(commands).toContain('RULE lid');
    expect(commands).toContain('RULE lid@1.2');
    expect((await eqAdvisor({ limit: 100 }).propose(contextFor('(e * c) * (e * d) = c * d', [{ name: 'h1', expr: 'x * y = y * x' }]))).flatMap((p) => p.commands)).toContain('RULE h1');
  });

  it('proposes nothing for a goal that is not an AIM equation', async () => {
    expect(await eqAdvisor().propose(contextFor('forall n : nat, n + 0 = n'))).toEqual([]);
  });
});

/**
 * Arbor's advisor replies, except that message 0 proposes the middle term `e * n` for the pair m, n —
 * built from the constant hashes it was sent, as any advisor must (one request per packet suffices here).
 */
function fakeAdvisor(): Promise<Server> {
  const bank = new TermBank();
  const conn = new AdvisorConnection(bank, parseArticle(bank, DEFAULT_PRELUDE).equations, 0);
  const server = createServer((socket) => socket.on('data', async (d: Buffer) => {
    const reader = new ByteReader(new Uint8Array(d));
    while (reader.pos < d.length) {
      const req = decodeRequest(bank, reader);
      const middle: number[] = [1];
      if (req.kind === 0) encodeTerm(bank, bank.app(SYM.mul, [bank.app(SYM.e, []), req.n]), middle);
      const reply = req.kind === 0 ? middle : await conn.reply(req);
      if (reply) socket.write(Uint8Array.from(reply));
    }
  }));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('eq-advisor source with an external advisor', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('takes middle terms (APPLY trans) and estimates from the advisor', async () => {
    server = await fakeAdvisor();
    const port = (server.address() as { port: number }).port;
    const proposals = await eqAdvisor({ advisor: { host: '127.0.0.1', port } }).propose(contextFor('c \\ (c * (e * d)) = d'));
    expect(proposals[0]).toMatchObject({ commands: ['APPLY trans "e * d"'] });
    expect(proposals.slice(1).every((p) => p.commands[0]?.startsWith('RULE '))).toBe(true);
    expect(proposals.some((p) => p.reason?.includes('by the advisor'))).toBe(true);
  });
});
