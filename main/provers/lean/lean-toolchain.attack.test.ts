import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TacticEngine } from '../../shell/tactic-engine.ts';
import { engineCommand } from '../../shell/testing/engine-command.ts';
import { asProverError } from './pantograph-session.ts';
import { PantographSession } from './pantograph-session.ts';
import { createLeanBackend } from './lean-backend.ts';
import { pantographProcess } from './lean-config.ts';
import { PantographClient, SILENT } from './pantograph-client.ts';
import type { LeanSettings } from './lean-config.ts';
import { findLeanSysroot, LEAN_SYSROOT_FIX } from './lean-sysroot.ts';
import { makeLeanToolchain } from './test-fixtures/lean-toolchain-double.ts';
import type { LeanToolchainDouble } from './test-fixtures/lean-toolchain-double.ts';

/**
 * Attacks on the Lean backend's toolchain handling and its failure paths, against the Pantograph TEST DOUBLE
 * and the Lean toolchain TEST DOUBLE (Lean cannot be installed here), plus a few hostile `lean`/Pantograph
 * stand-ins written below (each a three-line shell script, named as such).
 */
// These attacks are on the Lean backend's own handling (toolchains, crashes, replays), and some wrappers here
// keep state in a file between two starts of the REPL, which a sandboxed process cannot write: this file's
// processes run unsandboxed (the sandbox is attacked in main/process and main/provers/coq). Set before the
// process manager's first probe, which keeps its answer; vitest runs each test file in its own process.
process.env.ARBOR_SANDBOX = 'off';
const TSX_LOADER = import.meta.resolve('tsx');
const double = fileURLToPath(new URL('./test-fixtures/pantograph-double.ts', import.meta.url));
const doubleCommand = `${process.execPath} --import ${TSX_LOADER} ${double}`;
const nodeDir = dirname(process.execPath);

let toolchain: LeanToolchainDouble;
let scratch: string;
beforeAll(async () => {
  toolchain = await makeLeanToolchain();
  scratch = await mkdtemp(join(tmpdir(), 'arbor-lean-attack-'));
});
afterAll(async () => {
  await toolchain.remove();
  await rm(scratch, { recursive: true, force: true });
});

const cleanup: (() => Promise<void>)[] = [];
const savedEnv = { LEAN_SYSROOT: process.env.LEAN_SYSROOT, PATH: process.env.PATH };
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
  if (savedEnv.LEAN_SYSROOT === undefined) delete process.env.LEAN_SYSROOT;
  else process.env.LEAN_SYSROOT = savedEnv.LEAN_SYSROOT;
  process.env.PATH = savedEnv.PATH;
});

/** A hostile `lean` (shell script TEST DOUBLE) in a directory of its own; returns that directory. */
async function fakeLean(name: string, body: string): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'lean'), `#!/bin/sh\n${body}\n`);
  await chmod(join(dir, 'lean'), 0o755);
  return dir;
}

const env = (vars: Record<string, string | undefined>): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, PATH: nodeDir };
  delete e.LEAN_SYSROOT;
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) e[k] = v;
  return e;
};

function settings(extra: Partial<LeanSettings> = {}): LeanSettings {
  return { pantograph: doubleCommand, imports: ['Init'], leanOptions: [], graceMs: 1500, startupMs: 20_000, ...extra };
}

describe('attack: what `--check` says about Lean before Pantograph starts (findLeanSysroot)', () => {
  it('no `lean` anywhere: a problem that names `lean --print-prefix` and the fix', async () => {
    const r = await findLeanSysroot({ env: env({}) });
    expect(r.sysroot).toBeUndefined();
    expect(r.problem).toMatch(/`lean` could not be run \(not on PATH\)/);
    expect(r.problem).toContain(LEAN_SYSROOT_FIX);
  });

  it('a `lean` that prints garbage (exit 0): the library is not there, said with the path it looked at', async () => {
    const bin = await fakeLean('garbage', 'echo "garbage ☃ not a path"');
    const r = await findLeanSysroot({ env: env({ PATH: `${bin}:${nodeDir}` }) });
    expect(r.problem).toMatch(/^Lean's library is not where Pantograph will look for it: garbage ☃ not a path\/lib\/lean\/Init\.olean does not exist/);
    expect(r.problem).toContain(LEAN_SYSROOT_FIX);
  });

  it('a `lean` that exits 1 (elan without a default toolchain): its own first line is quoted', async () => {
    const bin = await fakeLean('noelan', 'echo "error: no default toolchain configured" >&2; exit 1');
    const r = await findLeanSysroot({ env: env({ PATH: `${bin}:${nodeDir}` }) });
    expect(r.problem).toMatch(/and it failed \(error: no default toolchain configured\)/);
  });

  it('a `lean` that hangs: a problem ("no answer in time"), never a hang of --check', async () => {
    const bin = await fakeLean('hang', 'exec sleep 600');
    const started = Date.now();
    const r = await findLeanSysroot({ env: env({ PATH: `${bin}:${nodeDir}` }), timeoutMs: 500 });
    expect(r.problem).toMatch(/and it failed \(no answer in time\)/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('LEAN_SYSROOT naming nothing, or a file: the library is not there', async () => {
    const missing = await findLeanSysroot({ env: env({ LEAN_SYSROOT: join(scratch, 'no-such-toolchain') }) });
    expect(missing).toMatchObject({ source: 'LEAN_SYSROOT', problem: expect.stringMatching(/no-such-toolchain\/lib\/lean\/Init\.olean does not exist \(system root .* from LEAN_SYSROOT\)/) });
    const file = join(scratch, 'a-file');
    await writeFile(file, 'not a directory');
    const onFile = await findLeanSysroot({ env: env({ LEAN_SYSROOT: file }) });
    expect(onFile.problem).toMatch(/a-file\/lib\/lean\/Init\.olean does not exist/);
  });

  it('LEAN_SYSROOT set but empty: Lean takes it as the system root (`IO.getEnv` is `some ""`), so --check must not pass on `lean` alone', async () => {
    // leanprover/lean4 `src/Lean/Util/Path.lean`: `if let some root ← IO.getEnv "LEAN_SYSROOT" then return root`.
    const r = await findLeanSysroot({ env: env({ LEAN_SYSROOT: '', PATH: `${toolchain.bin}:${nodeDir}` }) });
    expect(r.problem).toMatch(/LEAN_SYSROOT is set but empty/);
    expect(r.problem).toMatch(/unset LEAN_SYSROOT/);
  });
});

describe('attack: Pantograph start-up failures, as the channel\'s `unavailable:` answer', () => {
  it('LEAN_SYSROOT set but empty: the start-up error says so (not just "Lean\'s own library")', async () => {
    process.env.LEAN_SYSROOT = '';
    process.env.PATH = `${toolchain.bin}:${nodeDir}`;
    await expect(createLeanBackend(settings()).open({ timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/LEAN_SYSROOT is set but empty/),
    });
  });

  it('Lean\'s own library missing while importing only Mathlib: named as a Lean problem with the Lean fix, not as a bad import', async () => {
    // PANTOGRAPH TEST DOUBLE (shell script): what the real repl prints when Mathlib's import of `Init` finds no
    // system library (the toy double treats Mathlib as present on LEAN_PATH, so it cannot show this).
    const dir = join(scratch, 'repl-noinit');
    await mkdir(dir, { recursive: true });
    const repl = join(dir, 'repl');
    await writeFile(repl, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo 0.3.4; exit 0; fi\necho "uncaught exception: unknown module prefix 'Init'\n\nNo directory 'Init' or file 'Init.olean' in the search path entries:\n/proj/.lake/packages/mathlib/.lake/build/lib/lean\n/wrong/lib/lean" >&2\nexit 1\n`);
    await chmod(repl, 0o755);
    const backend = createLeanBackend(settings({ pantograph: repl, imports: ['Mathlib'] }));
    await expect(backend.open({ timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/^Pantograph could not find Lean's own library: unknown module prefix 'Init'/),
    });
  });

  it('a Pantograph whose `lean --print-prefix` hangs: the start-up limit, and the message names `lean` as a suspect', async () => {
    // The real repl waits on `lean --print-prefix` without a limit (`IO.Process.run`), before `ready.`.
    const bin = await fakeLean('hang2', 'exec sleep 30');
    delete process.env.LEAN_SYSROOT;
    process.env.PATH = `${bin}:${nodeDir}`;
    const backend = createLeanBackend(settings({ startupMs: 4000 }));
    await expect(backend.open({ timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/did not print ready\. within 4000 ms .*lean --print-prefix/),
    });
  }, 30_000);
});

describe('attack: a Pantograph that misbehaves mid-session', () => {
  function engine(timeoutMs = 3000): TacticEngine {
    const backend = createLeanBackend(settings());
    const e = new TacticEngine({ backend: 'lean', timeoutMs, watchdogGraceMs: 10_000, openSession: () => backend.open({ timeoutMs }) });
    cleanup.push(() => e.dispose());
    return e;
  }

  it('a REPL that cannot be restarted (its Lean went away): `unavailable` with the fix; once Lean is back the proof is replayed', async () => {
    // A toolchain of its own, whose library this test takes away and puts back (the REPL's environment is fixed at open).
    const own = await makeLeanToolchain();
    cleanup.push(() => own.remove());
    process.env.LEAN_SYSROOT = own.dir;
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(engineCommand('APPLY intro p q hp hq'));
    const init = join(own.dir, 'lib', 'lean', 'Init.olean');
    await rename(init, `${init}.away`);
    const crashed = await e.execute(engineCommand('APPLY crash!'));
    expect(crashed.error).toMatch(/^unavailable: Pantograph could not find Lean's own library: .*put the `lean` of the toolchain/);
    await rename(`${init}.away`, init);
    // Nothing of the proof is lost: the next command gets a new REPL, replayed to step 2.
    const next = await e.execute(engineCommand('APPLY constructor'));
    expect(next.error).toMatch(/^(prover crashed: .*restarted and replayed)?$/);
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ step: 2 });
    expect(await e.execute(engineCommand('APPLY constructor'))).toMatchObject({ error: '', step: 3, response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
  }, 60_000);

  it('REVERT after a crash: the earlier checkpoints belong to the dead REPL and are rebuilt by replay', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(engineCommand('APPLY intro p'));
    await e.execute(engineCommand('APPLY intro q hp hq'));
    expect((await e.execute(engineCommand('APPLY crash!'))).error).toMatch(/^prover crashed: .*restarted and replayed$/);
    expect(await e.execute(engineCommand('REVERT 2'))).toMatchObject({ error: '', step: 2 });
    expect(await e.execute(engineCommand('APPLY intro q hp hq'))).toMatchObject({ error: '', step: 3 });
    expect(await e.execute(engineCommand('APPLY constructor'))).toMatchObject({ error: '', step: 4, response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
    expect(await e.execute(engineCommand('REVERT 1'))).toMatchObject({ error: '', step: 1 });
  }, 60_000);

  it('a REPL that dies again during the replay: the answer says the restart failed too; the next command recovers at once', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    // PANTOGRAPH TEST DOUBLE wrapper (shell script): its second start reads only three commands (options.set,
    // goal.start, goal.print) and then ends, in the middle of the replay.
    const wrapper = join(scratch, 'dies-in-replay.sh');
    const count = join(scratch, 'dies-in-replay.count');
    await writeFile(wrapper, `#!/bin/sh\nif [ "$1" = "--version" ]; then exec ${doubleCommand} "$@"; fi\nn=$(cat '${count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${count}'\nif [ "$n" = 2 ]; then head -n 3 | ${doubleCommand} "$@"; else exec ${doubleCommand} "$@"; fi\n`);
    await chmod(wrapper, 0o755);
    const backend = createLeanBackend(settings({ pantograph: wrapper }));
    const e = new TacticEngine({ backend: 'lean', timeoutMs: 3000, watchdogGraceMs: 10_000, openSession: () => backend.open({ timeoutMs: 3000 }) });
    cleanup.push(() => e.dispose());
    await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(engineCommand('APPLY intro p q hp hq'));
    // (Before: `timeout` for a command that crashed, and `timeout` again for the next one, each after the full limit.)
    const crashed = await e.execute(engineCommand('APPLY crash!'));
    expect(crashed).toMatchObject({ response: null, step: 2 });
    expect(crashed.error).toMatch(/^prover crashed: Pantograph exited with code 1; the new REPL failed too while the proof was replayed \((Pantograph did not answer in time|Pantograph exited .*)\); the next command restarts it$/);
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ error: '', step: 2, response: { goal: 'p ∧ q' } });
    // The next command finds that REPL stopped (not silent: no wait for its limit), starts another (the
    // third), replays, and says so.
    const next = await e.execute(engineCommand('APPLY constructor'));
    expect(next.error).toMatch(/^prover crashed: the REPL before was lost while the proof was replayed \(.*\); restarted and replayed$/);
    expect(await e.execute(engineCommand('APPLY constructor'))).toMatchObject({ error: '', step: 3, response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
  }, 60_000);

  it('a REPL that writes something that is not JSON: `prover crashed`, restarted and replayed, the next step fine', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    // 0.3.3 lets a tactic's output reach stdout (the version gate refuses it; bypassed here to get a non-JSON line).
    process.env.PANTOGRAPH_DOUBLE_VERSION = '0.3.3';
    cleanup.push(async () => { delete process.env.PANTOGRAPH_DOUBLE_VERSION; });
    const s = settings();
    const session = await PantographSession.open({ process: pantographProcess(s, s.imports, undefined), imports: s.imports, timeoutMs: 3000, graceMs: 1500, startupMs: 20_000 });
    cleanup.push(() => session.dispose());
    // (0.3.3's goals carry `fragment`, so the v0.3.4 schema reads them.)
    await session.start('∀ (p : Prop), p → p');
    await session.step({ kind: 'apply', tactic: 'intro p hp' });
    const pid = session.pid;
    await expect(session.step({ kind: 'apply', tactic: 'stdout! <<not json>>' })).rejects.toMatchObject({ code: 'crashed', message: expect.stringMatching(/^Pantograph answered with something that is not JSON: <<not json>>; restarted and replayed$/) });
    expect(session.pid).not.toBe(pid);
    expect((await session.goals()).map((g) => g.goal)).toEqual(['p']);
    expect((await session.step({ kind: 'apply', tactic: 'exact hp' })).goals).toEqual([]);
  }, 60_000);
});

describe('attack: a REPL that keeps talking but never answers', () => {
  it('blank lines every 100 ms do not push the deadline back: `timeout` at the command\'s limit', async () => {
    // PANTOGRAPH TEST DOUBLE (shell script): `ready.`, then blank lines forever and no answer.
    const repl = join(scratch, 'chatty.sh');
    await writeFile(repl, '#!/bin/sh\necho ready.\nread line\nwhile true; do echo; sleep 0.1; done\n');
    await chmod(repl, 0o755);
    const client = await PantographClient.start({ command: repl, args: [] }, 10_000);
    cleanup.push(() => client.kill());
    const started = Date.now();
    await expect(client.request('stat', {}, 1000)).rejects.toMatchObject({ code: 'timeout', message: SILENT });
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 30_000);
});

describe('attack: Lean `core` errors (maxHeartbeats, maxRecDepth) in every position', () => {
  function engine(timeoutMs = 3000): TacticEngine {
    const backend = createLeanBackend(settings());
    const e = new TacticEngine({ backend: 'lean', timeoutMs, watchdogGraceMs: 10_000, openSession: () => backend.open({ timeoutMs }) });
    cleanup.push(() => e.dispose());
    return e;
  }

  it('a `core` error with Lean\'s message is a failed tactic, the first line kept; an empty one is still a `fail`', () => {
    expect(asProverError({ error: 'core', desc: 'maximum recursion depth has been reached\nuse `set_option maxRecDepth <num>`' })).toMatchObject({ code: 'fail', message: 'maximum recursion depth has been reached' });
    expect(asProverError({ error: 'core', desc: '' })).toMatchObject({ code: 'fail' });
  });

  it('in END\'s hammer (first candidates exhaust maxRecDepth): END still finishes with the one that works', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    const e = engine();
    await e.execute(engineCommand('GOAL "123456 * 2 = 246912"'));
    const end = await e.execute(engineCommand('END'));
    expect(end.error).toBe('');
    expect(end.script).toContain('  omega\n');
  }, 60_000);

  it('a `core` error in the middle of a hammer whose other candidates all fail: `fail`, not an aborted step; the limit is restored', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p : Prop), p → loop = 7"'));
    await e.execute(engineCommand('APPLY intro p hp'));
    // assumption, rfl, decide, omega fail; simp_all exhausts maxHeartbeats (`core`); exact? fails.
    const hammer = await e.execute(engineCommand('HAMMER 5'));
    expect(hammer).toMatchObject({ response: null, error: 'fail: the hammer found no proof', step: 2 });
    // The per-candidate `timeout` option was put back to the channel's limit: a 2 s tactic under 3 s runs.
    expect(await e.execute(engineCommand('APPLY sleep 2000'))).toMatchObject({ error: '', step: 3 });
  }, 60_000);

  it('a hostile goal (5000 nested parentheses, 10 KB): Lean\'s recursion limit, a failed step; the REPL keeps serving', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    const e = engine();
    const deep = `${'('.repeat(5000)}1${')'.repeat(5000)} = 1`;
    expect(await e.execute(engineCommand(`GOAL "${deep}"`))).toMatchObject({ error: '', step: 1 });
    const pid = e.status().pid;
    expect(await e.execute(engineCommand('APPLY rfl'))).toMatchObject({ response: null, error: 'fail: maximum recursion depth has been reached', step: 1 });
    expect(await e.execute(engineCommand('HAMMER 5'))).toMatchObject({ response: null, error: 'fail: the hammer found no proof', step: 1 });
    expect(e.status().pid).toBe(pid);
  }, 60_000);

  it('`core` in the only alternative (CRUSH = simp_all): `fail`, and the state is unchanged', async () => {
    process.env.LEAN_SYSROOT = toolchain.dir;
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p : Prop), p → loop = loop ∧ p"'));
    await e.execute(engineCommand('APPLY intro p hp'));
    const crush = await e.execute(engineCommand('CRUSH'));
    expect(crush.error).toMatch(/^fail: \(deterministic\) timeout at `whnf`/);
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ step: 2, response: { goal: 'loop = loop ∧ p' } });
  }, 60_000);
});
