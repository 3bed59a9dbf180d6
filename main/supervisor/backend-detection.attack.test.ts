import { describe, expect, it } from 'vitest';
import { freePort } from '../process/free-port.ts';
import { MsgpackConnection } from '../provers/isabelle/msgpack-connection.ts';
import { startIsaReplDouble } from '../provers/isabelle/test-fixtures/isa-repl-double.ts';
import { detectIsabelle, formatDetections } from './backend-detection.ts';

/** `--check` and the Provers page tell the truth about a configured Isa-REPL server (the TEST DOUBLE of one). */
describe('attack: `--check` with an Isa-REPL address', () => {
  it('nothing listens there: not found, with the fix (was: "isabelle: found")', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const d = await detectIsabelle({ address });
    expect(d.found).toBe(false);
    expect(d.missing.join('\n')).toMatch(new RegExp(`^the Isa-REPL server at ${address.replace(/\./g, '\\.')} does not answer \\(cannot connect to .*\\): start it there \\(Isa-REPL's repl_server\\.sh`, 'm'));
    expect(formatDetections([d])).toMatch(/^isabelle: NOT FOUND/m);
  });

  it('a server whose accept loop a silent client holds: not found, saying why, within a few seconds', async () => {
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    const silent = await MsgpackConnection.open(double.host, double.port, 5_000);
    try {
      const started = Date.now();
      const d = await detectIsabelle({ address: double.address });
      expect(d.found).toBe(false);
      expect(d.missing.join('\n')).toMatch(/accepted the connection but did not answer within 3000 ms; it takes new connections one at a time/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      silent.close();
      await double.close();
    }
  });

  it('a server that answers: found', async () => {
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    try {
      expect(await detectIsabelle({ address: double.address })).toMatchObject({ found: true });
    } finally {
      await double.close();
    }
  });
});
