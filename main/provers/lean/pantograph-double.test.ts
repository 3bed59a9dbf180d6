import { cp, mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runProcess } from '../../process/process-manager.ts';
import { LineProcess } from '../../process/line-process.ts';
import { goalPrintResultSchema, goalSchema, tacticResultSchema } from './pantograph-protocol.ts';
import { makeLeanToolchain, useLeanToolchainDouble } from './test-fixtures/lean-toolchain-double.ts';
import type { LeanToolchainDouble } from './test-fixtures/lean-toolchain-double.ts';

// The Pantograph TEST DOUBLE checked against what the real program's source and its newest client say.
const double = fileURLToPath(new URL('./test-fixtures/pantograph-double.ts', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');

// The real repl needs a Lean at start-up (`Lean.findSysroot`): a toolchain double of the Lean it is built with.
let toolchain: LeanToolchainDouble;
beforeAll(async () => {
  toolchain = await useLeanToolchainDouble();
});
afterAll(() => toolchain.remove());

async function session(version: string, lines: string[]): Promise<unknown[]> {
  const proc = new LineProcess({ command: process.execPath, args: ['--import', TSX_LOADER, double, 'Init'], env: { ...process.env, PANTOGRAPH_DOUBLE_VERSION: version } });
  for (const line of lines) proc.write(line);
  // An empty line ends the REPL; every answer is out by then, flushed or not.
  proc.write('');
  await proc.whenExited();
  const out: string[] = [];
  for (;;) {
    const line = await proc.nextLine(1000).catch(() => undefined);
    if (line === undefined) break;
    out.push(line);
  }
  expect(out[0]).toBe('ready.');
  return out.slice(1).map((l) => JSON.parse(l) as unknown);
}

const script = [
  'goal.start {"expr":"∀ (p : Prop), p → p"}',
  'goal.tactic {"stateId":0,"tactic":"intro p hp"}',
  'goal.tactic {"stateId":1,"tactic":"constructor"}',
  'goal.tactic {"stateId":1,"tactic":"sorry"}',
  'goal.print {"stateId":2,"rootExpr":true}',
  'goal.tactic {"stateId":1}',
  'nonsense {}',
];

describe('the double follows Pantograph\'s shapes for the version it claims (read from the tags)', () => {
  it('v0.3.4: goals with fragment, Lean messages, hasSorry/hasUnsafe, rootHas… flags, operation errors', async () => {
    const [start, intro, fail, sorry, print, noAction, unknown] = await session('0.3.4', script);
    expect(start).toEqual({ stateId: 0, root: expect.stringMatching(/^_uniq\.\d+$/) });
    expect(tacticResultSchema.parse(intro)).toMatchObject({ nextStateId: 1, hasSorry: false, hasUnsafe: false, messages: [] });
    expect(goalSchema.parse((intro as { goals: unknown[] }).goals[0])).toMatchObject({ fragment: 'tactic', target: { pp: 'p' } });
    // `Test/Integration.lean` (v0.3.4): a failure is `messages` of Lean message objects and both flags.
    expect(fail).toEqual({ messages: [expect.objectContaining({ fileName: '<Pantograph>', kind: '[anonymous]', severity: 'error', pos: { line: 1, column: 0 }, data: expect.stringMatching(/^tactic 'constructor' failed/) })], hasSorry: false, hasUnsafe: false });
    expect(sorry).toEqual({ nextStateId: 2, goals: [], messages: [], hasSorry: true, hasUnsafe: false });
    expect(goalPrintResultSchema.parse(print)).toMatchObject({ rootHasSorry: true, rootHasUnsafe: false, rootHasMVar: false });
    expect(noAction).toEqual({ error: 'operation', desc: 'Exactly one of {tactic, mode, expr, have, let, draft} must be supplied' });
    expect(unknown).toEqual({ error: 'command', desc: 'Unknown command nonsense' });
  });

  it('v0.3.1 … v0.3.3: messages are strings (Arbor\'s schema refuses them); v0.3.3 brings fragment', async () => {
    const [, intro1, fail1] = await session('0.3.1', script);
    expect((intro1 as { goals: Record<string, unknown>[] }).goals[0]).toHaveProperty('isConversion', false);
    expect(fail1).toEqual({ messages: [expect.stringMatching(/^<Pantograph>:1:0: error: tactic 'constructor' failed/)], hasSorry: false, hasUnsafe: false });
    expect(tacticResultSchema.safeParse(fail1).success).toBe(false);
    const [, intro3] = await session('0.3.3', script);
    expect((intro3 as { goals: Record<string, unknown>[] }).goals[0]).toHaveProperty('fragment', 'tactic');
  });

  it('v0.3.0 and v0.2.25: tacticErrors, no hasSorry — `sorry` answers like a proof', async () => {
    for (const version of ['0.3.0', '0.2.25']) {
      const [, intro, fail, sorry, print, noAction] = await session(version, script);
      expect(intro).toEqual({ nextStateId: 1, goals: [expect.objectContaining({ isConversion: false })] });
      expect(fail).toEqual({ tacticErrors: [expect.stringMatching(/^tactic 'constructor' failed/)] });
      expect(sorry).toEqual({ nextStateId: 2, goals: [] });
      expect(print).not.toHaveProperty('rootHasSorry');
      expect(noAction).toMatchObject({ error: 'arguments' });
    }
  });
});

describe('the double finds Lean as the real repl does (Main.lean: `Lean.initSearchPath (← Lean.findSysroot)`)', () => {
  async function start(env: NodeJS.ProcessEnv, args: string[] = ['Init']): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
    return runProcess({ program: process.execPath, args: ['--import', TSX_LOADER, double, ...args], env: { ...env, PANTOGRAPH_DOUBLE_VERSION: '0.3.4' }, input: '\n', timeoutMs: 20_000 });
  }
  const { LEAN_SYSROOT: _sysroot, ...withoutSysroot } = process.env;
  const nodeOnly = { ...withoutSysroot, PATH: dirname(process.execPath) };

  it('without LEAN_SYSROOT and without `lean` on PATH: uncaught exception, exit 1, no `ready.`; `--version` still answers', async () => {
    const r = await start(nodeOnly);
    expect(r).toMatchObject({ exitCode: 1, stdout: '' });
    expect(r.stderr).toBe("uncaught exception: process 'lean' exited with code 255\nstderr:\ncould not execute external process 'lean'\n\n");
    expect(await start(nodeOnly, ['--version'])).toMatchObject({ exitCode: 0, stdout: '0.3.4\n' });
  });

  it('`lean --print-prefix` on PATH, or LEAN_SYSROOT; a library of another Lean is refused', async () => {
    expect((await start({ ...nodeOnly, PATH: `${toolchain.bin}:${nodeOnly.PATH}` })).stdout).toBe('ready.\n');
    expect((await start({ ...nodeOnly, LEAN_SYSROOT: toolchain.dir })).stdout).toBe('ready.\n');
    const other = await makeLeanToolchain('v4.19.0');
    try {
      const r = await start({ ...nodeOnly, LEAN_SYSROOT: other.dir });
      expect(r).toMatchObject({ exitCode: 1, stdout: '' });
      expect(r.stderr).toBe(`uncaught exception: failed to read file '${join(other.dir, 'lib', 'lean', 'Init.olean')}', incompatible header\n`);
    } finally {
      await other.remove();
    }
  });

  it('a runtime limit in a tactic is a `core` error (Repl.lean v0.3.4 line 76), not a tactic failure', async () => {
    const [, maxRec, , heartbeats] = await session('0.3.4', [
      'goal.start {"expr":"100000 + 1 = 100001"}',
      'goal.tactic {"stateId":0,"tactic":"decide"}',
      'goal.start {"expr":"loop = loop"}',
      'goal.tactic {"stateId":1,"tactic":"simp_all"}',
    ]);
    expect(maxRec).toEqual({ error: 'core', desc: expect.stringMatching(/^maximum recursion depth has been reached\n/) });
    expect(heartbeats).toEqual({ error: 'core', desc: expect.stringMatching(/^\(deterministic\) timeout at `whnf`, maximum number of heartbeats \(200000\) has been reached\n/) });
  });
});

/**
 * The keys PyPantograph 0.3.15 reads without a default (`pantograph/server.py` goal_start/goal_tactic,
 * `expr.py` Goal.parse/Variable.parse, `message.py` Message.parse): its parsers fail on anything less.
 */
const clientMessage = z.object({ kind: z.string(), severity: z.enum(['information', 'warning', 'error']), pos: z.object({ line: z.number(), column: z.number() }), data: z.string() });
const clientGoal = z.object({ name: z.string(), vars: z.array(z.object({ type: z.object({ pp: z.string() }) })), target: z.object({ pp: z.string() }), fragment: z.enum(['tactic', 'conv', 'calc']) });
const clientSuccess = z.object({ nextStateId: z.number(), goals: z.array(clientGoal), messages: z.array(clientMessage), hasSorry: z.boolean(), hasUnsafe: z.boolean() });
const clientFailure = z.object({ messages: z.array(clientMessage) });

describe('the double answers what the newest client, PyPantograph 0.3.15, reads', () => {
  it('every goal.tactic answer of v0.3.4 parses with the client\'s required keys', async () => {
    const [start, intro, fail, sorry] = await session('0.3.4', script);
    expect(z.object({ stateId: z.number(), root: z.string() }).safeParse(start).success).toBe(true);
    expect(clientSuccess.safeParse(intro).success).toBe(true);
    expect(clientFailure.safeParse(fail).success).toBe(true);
    expect(clientSuccess.safeParse(sorry).success).toBe(true);
  });
});

/*
 * The real client itself, with Debian's python3 (≥ 3.11; PyPantograph 0.3.15 has no dependencies). PyPI is
 * not reachable here, so this runs where a checkout is given: PyPantograph's home is now
 * `stanford-centaur/PyPantograph` (`lenianiva/PyPantograph` stops at 0.2.25), e.g.
 * `git clone https://github.com/stanford-centaur/PyPantograph && git -C PyPantograph checkout v0.3.15`
 * then `ARBOR_PYPANTOGRAPH_DIR=$PWD/PyPantograph npx vitest run main/provers/lean/pantograph-double.test.ts`.
 * Nothing of it is copied: the test copies its `pantograph/` package to a temporary directory and puts the
 * double where the package looks for its `pantograph-repl`.
 */
const pyDir = process.env.ARBOR_PYPANTOGRAPH_DIR;
const pyReason = pyDir && existsSync(join(pyDir, 'pantograph', 'message.py'))
  ? ''
  : pyDir
    ? ` (skipped: ARBOR_PYPANTOGRAPH_DIR=${pyDir} is not a PyPantograph ≥ 0.3.x checkout: no pantograph/message.py; check out tag v0.3.15 of stanford-centaur/PyPantograph)`
    : ' (skipped: set ARBOR_PYPANTOGRAPH_DIR to a checkout of stanford-centaur/PyPantograph at tag v0.3.15 to drive the real client against the double)';
describe.skipIf(pyReason !== '')(`the real PyPantograph client against the double${pyReason}`, () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  async function runClient(version: string) {
    const dir = await mkdtemp(join(tmpdir(), 'arbor-pypantograph-'));
    dirs.push(dir);
    await cp(join(pyDir as string, 'pantograph'), join(dir, 'pantograph'), { recursive: true });
    const repl = join(dir, 'pantograph', 'pantograph-repl');
    // PyPantograph starts `pantograph-repl` beside its package: here, the double. Its stderr goes to a file:
    // shared with python's, node would make that descriptor non-blocking and python's traceback could be lost.
    await writeFile(repl, `#!/bin/sh\nexec '${process.execPath}' --import '${TSX_LOADER}' '${double}' "$@" 2>>'${join(dir, 'double.stderr')}'\n`);
    await chmod(repl, 0o755);
    return runProcess({
      program: 'python3',
      args: [fileURLToPath(new URL('./test-fixtures/pypantograph-client-check.py', import.meta.url))],
      env: { ...process.env, PYTHONPATH: dir, PANTOGRAPH_DOUBLE_VERSION: version },
      timeoutMs: 120_000,
    });
  }

  it('the check has teeth: the client cannot read v0.3.3\'s string messages', async () => {
    const r = await runClient('0.3.3');
    expect(r.exitCode).not.toBe(0);
    // `message.py` Message.parse indexes a message object; a string is not one.
    expect(r.stderr).toMatch(/TypeError: string indices must be integers/);
  }, 180_000);

  it('exchanges every message kind Arbor uses without error', async () => {
    const r = await runClient('0.3.4');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1) as string)).toEqual({
      kinds: [
        '--version', 'ready. and options.set', 'goal.start', 'goal.tactic (goals, vars, fragment)', 'goal.tactic have with goalId',
        'goal.tactic parseError', 'goal.tactic failure (Lean messages)', 'goal.tactic hasSorry, goal.delete', 'goal.tactic hasUnsafe, goal.delete',
        'goal.tactic goalId and autoResume', 'goal.tactic information message', 'goal.print rootExpr', 'interrupt by the timeout option', 'core error (runtime limit)',
        'goal.delete (gc)', 'stat', 'goal.start parsing error',
      ],
    });
  }, 180_000);
});
