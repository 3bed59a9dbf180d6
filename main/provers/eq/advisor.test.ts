import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAdvisorCommand } from '../../cli/advisor-command.ts';
import { AdvisorClient } from './advisor-client.ts';
import { ByteReader, decodeRequest, encodeRequest, OPTION_SLOTS, SkolemNames } from './advisor-codec.ts';
import { aimleapSkolems } from './aimleap-hash.ts';
import { startAdvisorServer } from './advisor-server.ts';
import { aimleapSearch } from './aimleap-search.ts';
import { parseArticle } from './article.ts';
import { checkProof } from './check-proof.ts';
import { DEFAULT_PRELUDE } from './default-prelude.ts';
import { parseEquation } from './parse-term.ts';
import { proofToJson } from './proof-json.ts';
import { TermBank } from './term.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});
const portOf = (s: Server): number => (s.address() as AddressInfo).port;

function peer(onData: (sock: Socket, d: Buffer) => void): Promise<Server> {
  const s = createServer((sock) => {
    sock.on('data', (d) => onData(sock, d));
    sock.on('error', () => undefined);
  });
  servers.push(s);
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(s)));
}

describe('advisor codec', () => {
  it('encodes terms as AIMLEAP does: Skolem = tag 2 + its 64-hex hash of the goal, 177-slot mask', () => {
    const bank = new TermBank();
    const t = parseEquation(bank, 'T(x,e) * y = y', { names: 'constants' });
    const names = new SkolemNames(aimleapSkolems(bank, t.lhs, t.rhs));
    const bytes = encodeRequest(bank, { kind: 0, m: t.lhs, n: t.rhs }, names);
    expect(bytes[0]).toBe(0);
    expect(bytes[1]).toBe(4);
    expect(bytes[2]).toBe(9);
    expect(bytes[3]).toBe(2);
    expect(String.fromCharCode(...bytes.slice(4, 68))).toBe(names.hexOf('x'));
    expect(names.hexOf('x')).toMatch(/^[0-9a-f]{64}$/);
    expect(bytes[68]).toBe(3);
    // Decoded with the goal's table, the hashes are the goal's constants again; without it, bare hashes.
    const back = decodeRequest(bank, new ByteReader(bytes), names);
    expect(back).toMatchObject({ kind: 0, m: t.lhs, n: t.rhs });
    const raw = decodeRequest(new TermBank(), new ByteReader(bytes));
    expect(raw.kind === 0 && raw.n.f >= 16).toBe(true);
    const mask = new Array(OPTION_SLOTS).fill(0);
    mask[5] = 1;
    const m4 = encodeRequest(bank, { kind: 4, mask });
    expect(m4.length).toBe(178);
    const vars = new TermBank();
    const st = encodeRequest(vars, { kind: 1, vbd: 2, m: vars.v(0), n: vars.v(1), cursor: { left: true, pos: [1, 2] } });
    expect([...st]).toEqual([1, 2, 1, 0, 1, 1, 1, 1, 2, 1, 2]);
  });
});

describe('advisor protocol both directions (127.0.0.1)', () => {
  const setup = () => {
    const bank = new TermBank();
    const article = parseArticle(bank, DEFAULT_PRELUDE);
    const goal = parseEquation(bank, 'e * ((x * e) * e) = x', { names: 'constants' });
    return { bank, article, goal };
  };

  it("Arbor's search uses Arbor's advisor server and finds a checked proof", async () => {
    const { bank, article, goal } = setup();
    const serverBank = new TermBank();
    const server = await startAdvisorServer({ port: 0, bank: serverBank, equations: parseArticle(serverBank, DEFAULT_PRELUDE).equations });
    servers.push(server);
    const client = await AdvisorClient.connect(bank, '127.0.0.1', portOf(server));
    const errors: string[] = [];
    const proof = await aimleapSearch(bank, article.equations, goal, { advisor: client, abslimit: 200, maxdepth: 10, onAdvisorError: (e) => errors.push(e) });
    client.close();
    expect(errors).toEqual([]);
    expect(proof).toBeDefined();
    expect(checkProof(DEFAULT_PRELUDE, proofToJson(bank, proof!)).ok).toBe(true);
  });

  it('a silent advisor is dropped after the reply timeout; the search still finishes', async () => {
    const { bank, article, goal } = setup();
    const server = await peer(() => undefined);
    const client = await AdvisorClient.connect(bank, '127.0.0.1', portOf(server), { replyTimeoutMs: 200 });
    const errors: string[] = [];
    const t0 = Date.now();
    const proof = await aimleapSearch(bank, article.equations, goal, { advisor: client, abslimit: 200, onAdvisorError: (e) => errors.push(e) });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(errors[0]).toMatch(/did not reply/);
    expect(proof).toBeDefined();
  });

  it('a malformed reply (wrong tag) is a clear error and the search continues without advice', async () => {
    const { bank, article, goal } = setup();
    const server = await peer((sock, d) => {
      if (d[0] === 0) sock.write(Uint8Array.from([0]));
      if (d.includes(4)) sock.write(Uint8Array.from([9, 9, 9]));
    });
    const client = await AdvisorClient.connect(bank, '127.0.0.1', portOf(server), { replyTimeoutMs: 500 });
    const errors: string[] = [];
    const proof = await aimleapSearch(bank, article.equations, goal, { advisor: client, abslimit: 200, onAdvisorError: (e) => errors.push(e) });
    expect(errors.join(' ')).toMatch(/malformed|reply tag 3|did not reply/);
    expect(proof).toBeDefined();
    client.close();
  });

  it('the Arbor advisor closes a connection that sends garbage, and keeps serving others', async () => {
    const server = await startAdvisorServer({ port: 0, bank: new TermBank(), equations: [] });
    servers.push(server);
    const { connect } = await import('node:net');
    const closed = await new Promise<boolean>((resolve) => {
      const s = connect(portOf(server), '127.0.0.1', () => s.write(Uint8Array.from([77])));
      s.on('close', () => resolve(true));
      s.on('error', () => resolve(true));
    });
    expect(closed).toBe(true);
    const bank = new TermBank();
    const client = await AdvisorClient.connect(bank, '127.0.0.1', portOf(server));
    expect(await client.pair(bank.v(0), bank.v(1))).toEqual([]);
    client.close();
  });

  it('runAdvisorCommand validates its arguments', async () => {
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runAdvisorCommand([])).toBe(2);
      expect(await runAdvisorCommand(['--port', 'x', '--preamble', 'p'])).toBe(2);
      expect(await runAdvisorCommand(['--port', '0', '--preamble', '/nonexistent/preamble.txt'])).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });
});
