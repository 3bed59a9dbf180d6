import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findExecutable } from '../process/find-executable.ts';
import { makeLeanToolchain } from '../provers/lean/test-fixtures/lean-toolchain-double.ts';
import { detectBackends, detectCoq, detectIsabelle, detectLean, formatDetections, formatSandbox } from './backend-detection.ts';
import { startIsaReplDouble } from '../provers/isabelle/test-fixtures/isa-repl-double.ts';

const coqInstalled = findExecutable('coqidetop.opt') !== undefined || findExecutable('coqidetop') !== undefined;

describe('backend detection (real binaries where present)', () => {
  it.runIf(coqInstalled)('finds coqidetop and reports its version', async () => {
    const coq = await detectCoq();
    expect(coq.found).toBe(true);
    const idetop = coq.tools[0];
    expect(idetop?.path).toMatch(/coqidetop/);
    expect(idetop?.version).toMatch(/The Coq Proof Assistant, version \d+\.\d+/);
    expect(coq.missing).toEqual([]);
  });

  it('a missing Isabelle or Lean is reported with the exact fix', async () => {
    const isabelle = await detectIsabelle();
    if (!isabelle.found) expect(isabelle.missing[0]).toMatch(/^isabelle not found on PATH: install the Isabelle distribution/);
    const lean = await detectLean();
    if (!lean.found) expect(lean.missing.join('\n')).toMatch(/Pantograph not found/);
    if (!findExecutable('lean')) expect(lean.missing.join('\n')).toMatch(/lean not found on PATH: install Lean 4 with elan/);
  });

  it('isabelle: found when an Isa-REPL server is configured (an address, or a command on PATH)', async () => {
    expect(await detectIsabelle({})).toMatchObject({ found: false, missing: expect.arrayContaining([expect.stringMatching(/^no Isa-REPL server configured/)]) });
    // (An address is asked `heartbeat` since attack26: see backend-detection.attack.test.ts.)
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    try {
      expect(await detectIsabelle({ address: double.address })).toMatchObject({ found: true, tools: expect.arrayContaining([{ name: 'Isa-REPL server (address)', path: double.address }]) });
    } finally {
      await double.close();
    }
    expect(await detectIsabelle({ serverCommand: process.execPath })).toMatchObject({ found: true });
    const bad = await detectIsabelle({ serverCommand: '/nonexistent/repl_server.sh' });
    expect(bad.found).toBe(false);
    expect(bad.missing.join('\n')).toMatch(/'\/nonexistent\/repl_server.sh' does not start an executable on PATH/);
    expect(formatDetections([bad])).toMatch(/tested: .*Never run against a real Isabelle/);
  });

  it('reports every backend in one readable block each', async () => {
    const all = await detectBackends();
    expect(all.map((d) => d.backend)).toEqual(['coq', 'eq', 'lean', 'isabelle']);
    const text = formatDetections(all);
    expect(text).toMatch(/^coq: (found|NOT FOUND)/m);
    expect(text).toMatch(/^eq: found/m);
    expect(text).toMatch(/^lean: /m);
  });

  it('Pantograph\'s version comes from its configured command line with --version, and is gated', async () => {
    // The Pantograph TEST DOUBLE (main/provers/lean/test-fixtures): a wrapper command line (node + loader + script).
    const double = fileURLToPath(new URL('../provers/lean/test-fixtures/pantograph-double.ts', import.meta.url));
    const pantograph = `${process.execPath} --import ${import.meta.resolve('tsx')} ${double}`;
    // Pantograph needs a Lean at start-up: a toolchain double, through LEAN_SYSROOT.
    const toolchain = await makeLeanToolchain();
    const saved = { PATH: process.env.PATH, LEAN_SYSROOT: process.env.LEAN_SYSROOT };
    process.env.LEAN_SYSROOT = toolchain.dir;
    try {
      const ok = await detectLean({ pantograph, imports: ['Init'], leanOptions: [] });
      expect(ok.tools[2]).toMatchObject({ name: process.execPath, version: '0.3.4' });
      expect(ok.missing.filter((m) => /print-prefix|Lean's library/.test(m))).toEqual([]);
      // `--version` answers without Lean, the REPL does not start without it: with no `lean` and no
      // LEAN_SYSROOT, `--check` and the Provers page say Pantograph cannot start, and how to fix it.
      delete process.env.LEAN_SYSROOT;
      process.env.PATH = dirname(process.execPath);
      const noLean = await detectLean({ pantograph, imports: ['Init'], leanOptions: [] });
      expect(noLean.found).toBe(false);
      expect(formatDetections([noLean])).toMatch(/fix: Pantograph runs `lean --print-prefix` at start-up to find Lean's library, and `lean` could not be run .*set LEAN_SYSROOT/);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.LEAN_SYSROOT === undefined) delete process.env.LEAN_SYSROOT;
      else process.env.LEAN_SYSROOT = saved.LEAN_SYSROOT;
      await toolchain.remove();
    }
    process.env.PANTOGRAPH_DOUBLE_VERSION = '0.3.1';
    const old = await detectLean({ pantograph, imports: ['Init'], leanOptions: [] });
    expect(old.found).toBe(false);
    expect(old.tools[2]).toMatchObject({ version: '0.3.1' });
    expect(old.missing.join('\n')).toMatch(/Pantograph 0\.3\.1 is older than 0\.3\.4/);
  });
});

afterEach(() => {
  delete process.env.PANTOGRAPH_DOUBLE_VERSION;
});

describe('the sandbox line of --check (and the Provers page, from the same list)', () => {
  it('says the Isa-REPL server runs outside the sandbox, whatever the sandbox\'s state', () => {
    for (const status of [{ state: 'on', detail: 'bubblewrap', sandboxed: true }, { state: 'off', detail: 'turned off by ARBOR_SANDBOX=off', sandboxed: false }] as const) {
      expect(formatSandbox(status)).toMatch(/not sandboxed: the Isa-REPL server \(isabelle backend\) runs outside it/);
    }
  });
});
