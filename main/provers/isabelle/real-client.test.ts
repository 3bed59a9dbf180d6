import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startIsaReplDouble } from './test-fixtures/isa-repl-double.ts';

const run = promisify(execFile);

/**
 * The Isa-REPL TEST DOUBLE checked against the REAL Python clients: `IsaREPL` (github.com/xqyww123/Isa-REPL)
 * and `IsaMini.REPL` (github.com/xqyww123/Isa-Mini), with their import-time dependency `Isabelle_RPC_Host`
 * (github.com/xqyww123/Isabelle_RPC). PyPI is not reachable from CI or from our machines, so the clients come
 * from source checkouts named by environment variables, never from this repository:
 *
 *   ARBOR_ISAREPL_SRC       a checkout of Isa-REPL (the directory holding IsaREPL/ and pyproject.toml)
 *   ARBOR_ISAMINI_SRC       a checkout of Isa-Mini (the directory holding IsaMini/)
 *   ARBOR_ISABELLE_RPC_SRC  a checkout of Isabelle_RPC (the directory holding Isabelle_RPC_Host/)
 *   ARBOR_ISA_PYTHON        the Python with msgpack, lmdb, xxhash, platformdirs, watchdog (default python3;
 *                           Debian: /usr/bin/python3 with python3-msgpack python3-lmdb python3-xxhash …)
 */
const sources = {
  isaRepl: process.env.ARBOR_ISAREPL_SRC,
  isaMini: process.env.ARBOR_ISAMINI_SRC,
  isabelleRpc: process.env.ARBOR_ISABELLE_RPC_SRC,
};
const python = process.env.ARBOR_ISA_PYTHON ?? 'python3';
const missing = Object.entries({ ARBOR_ISAREPL_SRC: sources.isaRepl, ARBOR_ISAMINI_SRC: sources.isaMini, ARBOR_ISABELLE_RPC_SRC: sources.isabelleRpc })
  .filter(([, v]) => !v).map(([k]) => k);
const SKIP_NOTE = `the real Python clients of Isa-REPL and Minilang are not available: set ${missing.join(', ')} to source checkouts of xqyww123/Isa-REPL, xqyww123/Isa-Mini and xqyww123/Isabelle_RPC (PyPI is unreachable here, so nothing is installed from it)`;

const script = fileURLToPath(new URL('./test-fixtures/real-client-check.py', import.meta.url));

interface Exchange { kind: string; ok: boolean; via: string; error?: string; detail?: unknown }
interface Report { exchanges: Exchange[]; patches: string[]; failures: string[]; unpatched_entry?: string; versions?: Record<string, string> }

/**
 * IsaREPL reads its own version from its installed metadata (`importlib.metadata.version('IsaREPL')`) and
 * sends it in the handshake. pip cannot build it from source here (its pyproject needs setuptools ≥ 77;
 * Debian 12 has 66), so write the one file pip would have written: its name and the version from its own
 * pyproject.toml. Nothing of the client's code is replaced.
 */
function distInfo(root: string, isaReplSrc: string): string {
  const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(isaReplSrc, 'pyproject.toml'), 'utf8'))?.[1];
  if (!version) throw new Error(`no version in ${isaReplSrc}/pyproject.toml`);
  const dir = join(root, `IsaREPL-${version}.dist-info`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'METADATA'), `Metadata-Version: 2.1\nName: IsaREPL\nVersion: ${version}\n`);
  return root;
}

describe('the Isa-REPL test double against the real Python clients (IsaREPL, IsaMini.REPL)', () => {
  it('every message kind Arbor uses is exchanged without error, and the double logs the same kinds', async (ctx) => {
    if (missing.length > 0) ctx.skip(SKIP_NOTE);
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    const meta = mkdtempSync(join(tmpdir(), 'arbor-isarepl-meta-'));
    try {
      const pythonPath = [distInfo(meta, sources.isaRepl as string), sources.isaRepl, sources.isaMini, sources.isabelleRpc].join(delimiter);
      const { stdout } = await run(python, [script, double.address], { env: { ...process.env, PYTHONPATH: pythonPath }, timeout: 120_000, maxBuffer: 16 << 20 });
      const report = JSON.parse(stdout) as Report;
      // The record of the run (the README's "what ran against what" comes from this output).
      console.info(`real clients ${JSON.stringify(report.versions)}; patches: ${JSON.stringify(report.patches)}; unpatched IsaMini.REPL entry: ${report.unpatched_entry}`);
      for (const e of report.exchanges) console.info(`  ${JSON.stringify(e.kind)} via ${e.via}: ${e.ok ? 'ok' : `FAILED ${e.error}`}`);

      expect(report.failures).toEqual([]);
      const kinds = new Set(report.exchanges.filter((e) => e.ok).map((e) => e.kind));
      for (const kind of ['heartbeat', 'handshake', '\x05notrace', '\x05load', '\x05addlibs', '\x05ML', '\x05record', '\x05rollback', 'eval-source', '\x05app',
        'minilang-start', '\\print', '\\stamp', '\\rollback', 'minilang-source', '\\eval', '\\END_mode', '\\conclude', '\\close', 'kill']) {
        expect(kinds, kind).toContain(kind);
      }
      // The server side saw the same kinds, each answered (errors included where the client expected one).
      const served = new Set(double.log.map((r) => r.kind));
      for (const kind of kinds) expect(served, kind).toContain(kind);
      expect(double.log.filter((r) => !r.ok).map((r) => r.error)).toEqual(expect.arrayContaining(['Bad Command CRUSH', 'incomplete MINSHELL script']));
      // The clients' own checks ran: Minilang's version handshake and \conclude's (theorem, proof) pair.
      const conclude = report.exchanges.find((e) => e.kind === '\\conclude' && e.ok && e.via === 'IsaMini.REPL.conclude');
      expect(conclude?.detail).toEqual({ theorem: 'A ∧ B ⟶ B ∧ A', proof: '' });
      // `kill` is answered by the server closing the interrupted session's connection (as Isa-REPL's Server.ML
      // does), never by an error answer: the client saw the connection end.
      expect(report.exchanges.find((e) => e.kind === 'kill')?.via).toMatch(/connection closed$/);
      // A finding about the client, not the double: IsaMini v0.6.0 cannot enter at all unpatched.
      if (report.patches.length > 0) expect(report.unpatched_entry).toMatch(/AttributeError/);
    } finally {
      rmSync(meta, { recursive: true, force: true });
      await double.close();
    }
  }, 180_000);
});
