import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TacticEngine } from '../../shell/tactic-engine.ts';
import { ProverError } from '../../shell/prover-session.ts';
import type { ProverSession } from '../../shell/prover-session.ts';
import { checkLean, createLeanBackend } from './lean-backend.ts';
import { findExecutable } from '../../process/find-executable.ts';
import { pantographProcess } from './lean-config.ts';
import type { LeanSettings } from './lean-config.ts';
import type { LeanCheckResult } from './lean-check.ts';
import { PantographSession } from './pantograph-session.ts';
import { engineCommand } from '../../shell/testing/engine-command.ts';
import { makeLeanToolchain, useLeanToolchainDouble } from './test-fixtures/lean-toolchain-double.ts';
import type { LeanToolchainDouble } from './test-fixtures/lean-toolchain-double.ts';

/** Provers run in a working directory of their own, where a bare `tsx` would not resolve: import it by URL. */
const TSX_LOADER = import.meta.resolve('tsx');

// The Pantograph TEST DOUBLE (a real process behaving like Pantograph's repl of the version it claims,
// PANTOGRAPH_DOUBLE_VERSION, default 0.3.4): see test-fixtures. Lean cannot be installed on our machines.
const double = fileURLToPath(new URL('./test-fixtures/pantograph-double.ts', import.meta.url));
const doubleCommand = `${process.execPath} --import ${TSX_LOADER} ${double}`;

// Pantograph needs a Lean at start-up (LEAN_SYSROOT or `lean` on PATH): a toolchain double of the Lean it is built with.
let toolchain: LeanToolchainDouble;
beforeAll(async () => {
  toolchain = await useLeanToolchainDouble();
});
afterAll(() => toolchain.remove());

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
  delete process.env.PANTOGRAPH_DOUBLE_VERSION;
});

function settings(extra: Partial<LeanSettings> = {}): LeanSettings {
  return { pantograph: doubleCommand, imports: ['Init'], leanOptions: [], graceMs: 1500, startupMs: 20_000, ...extra };
}

async function open(extra: Partial<LeanSettings> = {}, timeoutMs = 3000): Promise<ProverSession> {
  const session = await createLeanBackend(settings(extra)).open({ timeoutMs });
  cleanup.push(() => session.dispose());
  return session;
}

function engine(extra: Partial<LeanSettings> = {}, timeoutMs = 3000): TacticEngine {
  const backend = createLeanBackend(settings(extra));
  const e = new TacticEngine({ backend: 'lean', timeoutMs, watchdogGraceMs: 10_000, openSession: () => backend.open({ timeoutMs }) });
  cleanup.push(() => e.dispose());
  return e;
}

/** A session on the double without the backend (and so without its version gate), for what only a session shows. */
async function rawSession(extra: Partial<LeanSettings> = {}, checkScript?: (script: string, theorem: string) => Promise<LeanCheckResult | undefined>): Promise<PantographSession> {
  const s = settings(extra);
  const session = await PantographSession.open({ process: pantographProcess(s, s.imports, undefined), imports: s.imports, timeoutMs: 3000, graceMs: 1500, startupMs: 20_000, ...(checkScript ? { checkScript } : {}) });
  cleanup.push(() => session.dispose());
  return session;
}

describe('PantographSession against the Pantograph test double (v0.3.4)', () => {
  it('a structured proof through the shell semantics, and its Lean script', async () => {
    const e = engine();
    expect(await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'))).toMatchObject({ error: '', step: 1 });
    expect(await e.execute(engineCommand('APPLY intro p q hp hq'))).toMatchObject({
      error: '', response: { ctxt: { vars: [{ name: 'p', type: 'Prop' }, { name: 'q', type: 'Prop' }, { name: 'hp', type: 'p' }, { name: 'hq', type: 'q' }], hyps: [] }, goal: 'p ∧ q' },
    });
    const have = await e.execute(engineCommand('HAVE h "1 + 1 = 2"'));
    expect(have.response).toMatchObject({ goal: [{ goal: '1 + 1 = 2' }, { goal: 'p ∧ q', ctxt: { hyps: [{ name: 'h', expr: '1 + 1 = 2' }] } }] });
    expect(await e.execute(engineCommand('END'))).toMatchObject({ error: '', step: 4 });
    expect(await e.execute(engineCommand('APPLY constructor'))).toMatchObject({ error: '', response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
    expect(await e.execute(engineCommand('NEXT'))).toMatchObject({ error: '' });
    const done = await e.execute(engineCommand('END'));
    expect(done).toMatchObject({ error: '', response: { goal: [] } });
    expect(done.script).toBe([
      'theorem arbor_goal : ∀ (p q : Prop), p → q → p ∧ q := by',
      '  intro p q hp hq',
      '  have h : 1 + 1 = 2 := by',
      '    rfl',
      '  constructor',
      '  · assumption',
      '  · assumption',
      '',
    ].join('\n'));
    // No `lean` here to check the script: no ASSUMPTIONS are claimed.
    expect(done.assumptions).toBeUndefined();
  });

  it('a named GOAL names the theorem in the script', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL and_intro "∀ (p : Prop), p → p"'));
    await e.execute(engineCommand('APPLY intro p hp'));
    expect((await e.execute(engineCommand('END'))).script).toBe('theorem and_intro : ∀ (p : Prop), p → p := by\n  intro p hp\n  assumption\n');
  });

  it('OBTAIN: the claim first, then the main goal with the witnesses; one obtain in the script', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (m : ℕ), m = 4 → m = 4"'));
    await e.execute(engineCommand('APPLY intro m hm'));
    const r = await e.execute(engineCommand('OBTAIN k :: ℕ where hk: "m = 2 * k"'));
    expect(r).toMatchObject({ error: '', response: { goal: [{ goal: '∃ (k : ℕ), (m = 2 * k)' }, { goal: 'm = 4', ctxt: { vars: [{ name: 'k', type: 'ℕ' }], hyps: [{ name: 'hk', expr: 'm = 2 * k' }] } }] } });
    expect((await e.execute(engineCommand('SCRIPT'))).response).toContain('  obtain ⟨k, hk⟩ : ∃ (k : ℕ), (m = 2 * k) := by\n    sorry\n  sorry');
  });

  it('failures, parse errors (by Pantograph\'s error kind), bad rules leave the state unchanged', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (n : ℕ), n = n"'));
    expect((await e.execute(engineCommand('APPLY frobnicate'))).error).toBe('parse error: <Pantograph>:1:0: unknown tactic');
    expect((await e.execute(engineCommand('APPLY constructor'))).error).toMatch(/^fail: tactic 'constructor' failed/);
    expect((await e.execute(engineCommand('UNFOLD nonexistent'))).error).toBe('bad rule: not an equation');
    expect((await e.execute(engineCommand('CRUSH'))).error).toBe('fail: simp_all made no progress');
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ error: '', step: 1, response: { goal: '∀ (n : ℕ), n = n' } });
    // goal.start: `parsing` is a parse error, `elab` is Lean's own message — whatever the wording of `desc`.
    expect((await e.execute(engineCommand('GOAL "(1 + "'))).error).toBe('parse error: <stdin>:1:5: unexpected end of input; expected term');
    expect((await e.execute(engineCommand('GOAL "undefined_thing = 1"'))).error).toBe("unknown identifier 'undefined_thing'");
    // An `elab` error whose wording says "expected" is still Lean's message, not a parse error (a regex on
    // `desc` took it for one).
    const notAType = (await e.execute(engineCommand('GOAL "Nat.succ"'))).error;
    expect(notAType).toMatch(/^type expected, got/);
    expect(notAType).not.toMatch(/^parse error/);
  });

  it('a step whose proof term uses sorry or an unsafe constant is refused, its state deleted', async () => {
    const s = await rawSession();
    await s.start('∀ (p : Prop), p → p');
    await s.step({ kind: 'apply', tactic: 'intro p hp' });
    const held = await s.stateCount();
    for (const tactic of ['sorry', 'admit', 'exact sorry']) {
      await expect(s.step({ kind: 'apply', tactic })).rejects.toMatchObject({ code: 'fail', message: 'the step uses sorry: it proves nothing' });
    }
    await expect(s.step({ kind: 'apply', tactic: 'exact unsafeCast hp' })).rejects.toMatchObject({ code: 'fail', message: 'the step uses an unsafe constant: it proves nothing' });
    await expect(s.step({ kind: 'have', name: 'h', expr: '1 = 1' }).then(() => s.step({ kind: 'apply', tactic: 'sorry' }))).rejects.toMatchObject({ code: 'fail' });
    expect((await s.goals()).map((g) => g.goal)).toEqual(['1 = 1', 'p']);
    // The refused states were freed (goal.delete); the HAVE is the only new one kept.
    expect(await s.stateCount()).toBe(held + 1);
    // Through the protocol: the same refusal, the state unchanged.
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p : Prop), p → p"'));
    expect((await e.execute(engineCommand('APPLY sorry'))).error).toBe('fail: the step uses sorry: it proves nothing');
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ error: '', step: 1, response: { goal: '∀ (p : Prop), p → p' } });
  });

  it('goal.delete: failed attempts, hammer candidates, reverted steps and earlier proofs are freed', async () => {
    const s = await rawSession();
    const first = await s.start('∀ (p q : Prop), p → q → p ∧ q');
    expect(await s.stateCount()).toBe(1);
    const intro = await s.step({ kind: 'apply', tactic: 'intro p q hp hq' });
    await expect(s.step({ kind: 'apply', tactic: 'exact hp' })).rejects.toMatchObject({ code: 'fail' });
    // HAMMER on `p ∧ q`: simp_all leaves goals (its state freed), nothing closes it.
    await expect(s.step({ kind: 'hammer', timeoutMs: 3000 })).rejects.toMatchObject({ code: 'fail' });
    expect(await s.stateCount()).toBe(2);
    const split = await s.step({ kind: 'apply', tactic: 'constructor' });
    await s.step({ kind: 'apply', tactic: 'assumption' });
    expect(await s.stateCount()).toBe(4);
    // Back to after `intro`: the two later states go.
    await s.restore(intro.checkpoint);
    expect(await s.stateCount()).toBe(2);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['p ∧ q']);
    // A checkpoint whose state was freed is rebuilt by replay, not trusted.
    await s.restore(split.checkpoint);
    expect((await s.goals()).map((g) => g.goal)).toEqual(['p', 'q']);
    await s.restore(first.checkpoint);
    expect(await s.stateCount()).toBe(1);
    // A new theorem: the earlier proof's states are of no further use.
    await s.start('∀ (n : ℕ), n = n');
    expect(await s.stateCount()).toBe(1);
  });

  it('HAMMER runs the portfolio and records the tactic that worked (exact? → its suggestion)', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p : Prop), p → p"'));
    await e.execute(engineCommand('APPLY intro p hp'));
    expect(await e.execute(engineCommand('HAMMER 5'))).toMatchObject({ error: '', response: { goal: 'True' } });
    const done = await e.execute(engineCommand('END'));
    expect(done.script).toContain('  assumption\n');
    const s = await open();
    await s.start('∀ (n : ℕ), n + 0 = n');
    const noProof = s.step({ kind: 'hammer', timeoutMs: 3000 });
    await expect(noProof).rejects.toMatchObject({ code: 'fail' });
  });

  it('REVERT restores an earlier Pantograph state id', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(engineCommand('APPLY intro p q hp hq'));
    await e.execute(engineCommand('APPLY constructor'));
    expect(await e.execute(engineCommand('REVERT 2'))).toMatchObject({ error: '', step: 2, response: { goal: 'p ∧ q' } });
    expect(await e.execute(engineCommand('APPLY constructor'))).toMatchObject({ error: '', step: 3 });
  });

  it('PRINT_MODE 2: the seed\'s s-expressions with _n de Bruijn indices, not Pantograph\'s raw ones', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    const two = await e.execute(engineCommand('PRINT_MODE 2'));
    expect(two).toMatchObject({ error: '', response: { goal: '(\\<forall> Prop (\\<forall> Prop (\\<forall> _1 (\\<forall> _1 (And _3 _2)))))' } });
    const intro = await e.execute(engineCommand('APPLY intro p q hp hq'));
    expect(intro.response).toMatchObject({ ctxt: { vars: [{ name: 'p', type: 'Prop' }, { name: 'q', type: 'Prop' }, { name: 'hp', type: 'p' }, { name: 'hq', type: 'q' }] }, goal: '(And p q)' });
    expect(JSON.stringify(intro.response)).not.toMatch(/:fv|:c |_uniq/);
    await e.execute(engineCommand('GOAL "∀ (m : ℕ), m + 1 = 2 → ∃ (k : ℕ), m = k"'));
    expect((await e.execute(engineCommand('STATE'))).response).toMatchObject({
      goal: '(\\<forall> Nat (\\<forall> (Eq Nat (HAdd.hAdd Nat Nat Nat (instHAdd Nat instAddNat) _0 (OfNat.ofNat Nat 1 (instOfNatNat 1))) (OfNat.ofNat Nat 2 (instOfNatNat 2))) (Exists Nat (\\<lambda> Nat (Eq Nat _2 _0)))))',
    });
    expect(await e.execute(engineCommand('PRINT_MODE 1'))).toMatchObject({ response: { goal: '∀ (m : ℕ), m + 1 = 2 → ∃ (k : ℕ), m = k' } });
  });

  it('a tactic\'s own output goes to stderr from v0.3.4: the answers stay in step', async () => {
    const s = await open();
    await s.start('∀ (p : Prop), p → p');
    // What the tactic prints even looks like a finished answer; v0.3.4 keeps it off stdout.
    const forged = JSON.stringify({ nextStateId: 99, goals: [], messages: [], hasSorry: false, hasUnsafe: false });
    const printed = await s.step({ kind: 'apply', tactic: `stdout! ${forged}` });
    expect(printed.goals.map((g) => g.goal)).toEqual(['∀ (p : Prop), p → p']);
    expect((await s.step({ kind: 'apply', tactic: 'intro p hp' })).goals.map((g) => g.goal)).toEqual(['p']);
  });

  it('Pantograph interrupts a tactic past the timeout option: timeout, same process, state kept', async () => {
    const s = await open({}, 300);
    await s.start('∀ (n : ℕ), n = n');
    const pid = s.pid;
    await expect(s.step({ kind: 'apply', tactic: 'sleep 5000' })).rejects.toMatchObject({ code: 'timeout', message: 'timeout' });
    expect(s.pid).toBe(pid);
    expect((await s.step({ kind: 'apply', tactic: 'intro n' })).goals).toEqual([{ context: [{ kind: 'var', name: 'n', text: 'ℕ' }], goal: 'n = n' }]);
  });

  it('a tactic that ignores the timeout option (doc/rationale.md): Arbor kills the silent REPL, restarts and replays', async () => {
    const s = await open({ graceMs: 300 }, 300);
    await s.start('∀ (p q : Prop), p → q → p ∧ q');
    await s.step({ kind: 'apply', tactic: 'intro p q hp hq' });
    const pid = s.pid;
    await expect(s.step({ kind: 'apply', tactic: 'spin 5000' })).rejects.toMatchObject({ code: 'timeout' });
    expect(s.pid).not.toBe(pid);
    expect((await s.goals())[0]?.goal).toBe('p ∧ q');
    const split = await s.step({ kind: 'apply', tactic: 'constructor' });
    expect(split.goals.map((g) => g.goal)).toEqual(['p', 'q']);
  });

  it('a crashed REPL: crashed error, new process, replayed to the last good step', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(engineCommand('APPLY intro p q hp hq'));
    const pid = e.status().pid;
    const r = await e.execute(engineCommand('APPLY crash!'));
    expect(r.error).toMatch(/^prover crashed: Pantograph exited with code 1; restarted and replayed$/);
    expect(r.step).toBe(2);
    const after = await e.execute(engineCommand('APPLY constructor'));
    expect(after).toMatchObject({ error: '', step: 3, response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
    expect(pid).toBeDefined();
  });

  it('rejects a line break in a tactic before it reaches the REPL', async () => {
    const s = await open();
    await s.start('∀ (p : Prop), p → p');
    await expect(s.step({ kind: 'apply', tactic: 'intro p hp\nexact hp' })).rejects.toMatchObject({ code: 'parse' });
  });
});

describe('finishing a proof: Pantograph\'s proof term, then Lean\'s kernel on the script', () => {
  /** LEAN TEST DOUBLE for the checker: `lean` cannot run here; these are its documented verdicts (lean-check.ts reads the real output). */
  const leanDouble = (verdict: LeanCheckResult) => async (script: string, theorem: string): Promise<LeanCheckResult> => {
    seen.push({ script, theorem });
    return verdict;
  };
  const seen: { script: string; theorem: string }[] = [];

  async function proved(checker?: (script: string, theorem: string) => Promise<LeanCheckResult | undefined>): Promise<PantographSession> {
    const s = await rawSession({}, checker);
    await s.start('∀ (p : Prop), p → p', 'id_prop');
    await s.step({ kind: 'apply', tactic: 'intro p hp' });
    await s.step({ kind: 'apply', tactic: 'assumption' });
    return s;
  }

  it('the checked script and its axioms; only Lean\'s standard axioms are trusted', async () => {
    seen.length = 0;
    const ok = await proved(leanDouble({ ok: true, axioms: ['propext'] }));
    await expect(ok.finish()).resolves.toMatchObject({ assumptions: ['propext'] });
    expect(seen).toEqual([{ script: 'theorem id_prop : ∀ (p : Prop), p → p := by\n  intro p hp\n  assumption\n', theorem: 'id_prop' }]);
    const native = await proved(leanDouble({ ok: true, axioms: ['propext', 'Lean.ofReduceBool'] }));
    await expect(native.finish()).rejects.toMatchObject({ code: 'unsound', message: 'unsound: depends on Lean.ofReduceBool' });
    const refused = await proved(leanDouble({ ok: false, error: 'line 3: unsolved goals', timedOut: false }));
    await expect(refused.finish()).rejects.toMatchObject({ code: 'fail', message: 'Lean refused the reproduction script: line 3: unsolved goals' });
  });

  it('without lean: Pantograph\'s flags only, and no assumptions claimed', async () => {
    const s = await proved(async () => undefined);
    const finished = await s.finish();
    expect(finished.assumptions).toBeUndefined();
    const open = await rawSession();
    await open.start('∀ (p : Prop), p → p');
    await expect(open.finish()).rejects.toMatchObject({ code: 'fail' });
  });
});

describe('starting Pantograph: the version gate and failures as the real program shows them', () => {
  it('refuses every version before 0.3.4 with the reason and the exact fix, before starting a REPL', async () => {
    for (const version of ['0.2.25', '0.3.0', '0.3.1', '0.3.2', '0.3.3']) {
      process.env.PANTOGRAPH_DOUBLE_VERSION = version;
      await expect(createLeanBackend(settings()).open({ timeoutMs: 1000 })).rejects.toSatisfy((err: unknown) =>
        err instanceof ProverError && err.code === 'unavailable'
        && err.message.startsWith(`Pantograph ${version} is older than 0.3.4, the oldest Arbor speaks to (`)
        && err.message.includes('git checkout v0.3.4 && lake build repl'));
    }
    // The Provers page and `arbor-shell --check` say the same.
    const check = await checkLean(settings());
    expect(check.available).toBe(false);
    expect(check.problems.join('\n')).toContain('Pantograph 0.3.3 is older than 0.3.4');
    process.env.PANTOGRAPH_DOUBLE_VERSION = '0.3.4';
    const s = await open();
    expect((await s.start('∀ (p : Prop), p → p')).goals[0]?.goal).toBe('∀ (p : Prop), p → p');
  });

  it('why 0.3.3 is refused: with the gate bypassed, a tactic\'s output is taken for the answer', async () => {
    process.env.PANTOGRAPH_DOUBLE_VERSION = '0.3.3';
    const s = settings();
    const session = await PantographSession.open({ process: pantographProcess(s, s.imports, undefined), imports: s.imports, timeoutMs: 3000, graceMs: 1500 });
    cleanup.push(() => session.dispose());
    await session.start('∀ (p : Prop), p → p');
    const forged = JSON.stringify({ nextStateId: 0, goals: [], messages: [], hasSorry: false, hasUnsafe: false });
    // The line the tactic printed arrives where the answer should: the goal looks closed. From 0.3.4 it cannot.
    const fooled = await session.step({ kind: 'apply', tactic: `stdout! ${forged}` });
    expect(fooled.goals).toEqual([]);
  });

  it('--version runs the configured command line (its own arguments kept) with nothing else beside it', async () => {
    const check = await checkLean(settings());
    expect(check.available).toBe(true);
    expect(check.details.join('\n')).toMatch(/pantograph: .* \(Pantograph 0\.3\.4; Arbor speaks to 0\.3\.4 … 0\.3\.x\)/);
    // Later builds print the Lean toolchain after the version (`0.3.7/v4.21.0`): still a version.
    process.env.PANTOGRAPH_DOUBLE_VERSION_SUFFIX = '/v4.21.0';
    try {
      const suffixed = await checkLean(settings());
      expect(suffixed.available).toBe(true);
      expect(suffixed.details.join('\n')).toContain('(Pantograph 0.3.4; Arbor speaks to');
    } finally {
      delete process.env.PANTOGRAPH_DOUBLE_VERSION_SUFFIX;
    }
    // A Pantograph option inside the command line: `--version` is then not alone, Pantograph does not answer it.
    const withOption = createLeanBackend(settings({ pantograph: `${doubleCommand} --pp.all=true` }));
    await expect(withOption.open({ timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/--pp\.all=true --version` printed no Pantograph version \(uncaught exception: Options cannot be parsed: .*\): the command must be Pantograph's repl alone \(Lean options go to ARBOR_LEAN_OPTIONS/),
    });
  });

  it('a failed import ends Pantograph with an uncaught exception and exit 1; Arbor says which import and what to do', async () => {
    const badImport = createLeanBackend(settings({ imports: ['NoSuchLibrary'] }));
    await expect(badImport.open({ timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'unavailable',
      message: `Pantograph could not import NoSuchLibrary: unknown module prefix 'NoSuchLibrary' (searched ${toolchain.dir}/lib/lean); check the Lean imports (ARBOR_LEAN_IMPORTS, the prelude) and, for a Lake project, set ARBOR_LEAN_PROJECT to it after \`lake build\``,
    });
    const badOption = createLeanBackend(settings({ leanOptions: ['maxHeartbeats'] }));
    await expect(badOption.open({ timeoutMs: 1000 })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^Pantograph refused its Lean options \(ARBOR_LEAN_OPTIONS, key=value each\): Options cannot be parsed/) });
  });

  it('a missing Pantograph is one clear unavailable error, never a hang', async () => {
    const missing = createLeanBackend(settings({ pantograph: 'pantograph-repl-that-does-not-exist' }));
    await expect(missing.open({ timeoutMs: 1000 })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^Pantograph not found: 'pantograph-repl-that-does-not-exist' is not on PATH; build Pantograph v0\.3\.4/) });
    const check = await missing.check();
    expect(check).toMatchObject({ backend: 'lean', available: false });
    expect(check.problems.join('\n')).toMatch(/Pantograph not found/);
  });

  /** Runs `body` with LEAN_SYSROOT and PATH as given (undefined: unset), then puts them back. */
  async function withLeanEnv(env: { LEAN_SYSROOT?: string; PATH: string }, body: () => Promise<void>): Promise<void> {
    const saved = { LEAN_SYSROOT: process.env.LEAN_SYSROOT, PATH: process.env.PATH };
    if (env.LEAN_SYSROOT === undefined) delete process.env.LEAN_SYSROOT;
    else process.env.LEAN_SYSROOT = env.LEAN_SYSROOT;
    process.env.PATH = env.PATH;
    try {
      await body();
    } finally {
      process.env.LEAN_SYSROOT = saved.LEAN_SYSROOT;
      process.env.PATH = saved.PATH;
    }
  }

  it('without a `lean` (no LEAN_SYSROOT, none on PATH) Pantograph dies at start-up; Arbor says so and names the fix', async () => {
    // PATH keeps only the directory of `node` (the double's interpreter): no `lean` there on our machines.
    const nodeOnly = dirname(process.execPath);
    expect(findExecutable('lean', nodeOnly)).toBeUndefined();
    await withLeanEnv({ PATH: nodeOnly }, async () => {
      // `--version` still answers (Main.lean answers it before finding Lean): the probe alone cannot tell.
      await expect(createLeanBackend(settings()).open({ timeoutMs: 1000 })).rejects.toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/^Pantograph could not find Lean: at start-up it runs `lean --print-prefix` \(Lean\.findSysroot\), which failed \(process 'lean' exited with code 255: could not execute external process 'lean'\): put the `lean` of the toolchain Pantograph was built with on PATH .* or set LEAN_SYSROOT/),
      });
      const check = await checkLean(settings());
      expect(check.available).toBe(false);
      expect(check.problems.join('\n')).toMatch(/Pantograph runs `lean --print-prefix` at start-up to find Lean's library, and `lean` could not be run .*: put the `lean` of the toolchain/);
    });
  });

  it('a `lean` on PATH is enough (LEAN_SYSROOT unset): its --print-prefix names the library', async () => {
    await withLeanEnv({ PATH: `${toolchain.bin}:${dirname(process.execPath)}` }, async () => {
      const check = await checkLean(settings());
      expect(check.problems.filter((p) => /print-prefix|Lean's library|different versions/.test(p))).toEqual([]);
      expect(check.available).toBe(true);
      expect(check.details.join('\n')).toContain(`Lean library for Pantograph: ${toolchain.dir}/lib/lean (from lean --print-prefix, Lean 4.21.0)`);
      const s = await open();
      expect((await s.start('∀ (p : Prop), p → p')).goals).toHaveLength(1);
    });
  });

  it('a Lean of another version: Lean refuses its library ("incompatible header"); Arbor names the mismatch', async () => {
    const other = await makeLeanToolchain('v4.19.0');
    cleanup.push(() => other.remove());
    await withLeanEnv({ LEAN_SYSROOT: other.dir, PATH: process.env.PATH ?? '' }, async () => {
      await expect(createLeanBackend(settings()).open({ timeoutMs: 1000 })).rejects.toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/^Pantograph and the Lean it found are of different versions \(failed to read file '.*\/lib\/lean\/Init\.olean', incompatible header\): put the `lean` of the toolchain/),
      });
    });
    // Where Pantograph names its toolchain (`--version` → `0.3.4/v4.21.0`), `--check` sees the mismatch before any start.
    process.env.PANTOGRAPH_DOUBLE_VERSION_SUFFIX = '/v4.21.0';
    try {
      await withLeanEnv({ PATH: `${other.bin}:${dirname(process.execPath)}` }, async () => {
        const check = await checkLean(settings());
        expect(check.available).toBe(false);
        expect(check.problems.join('\n')).toContain('Pantograph is built with Lean 4.21.0, but the Lean it will use (`lean` on PATH) is 4.19.0');
      });
    } finally {
      delete process.env.PANTOGRAPH_DOUBLE_VERSION_SUFFIX;
    }
  });
});

describe('runtime limits: Lean\'s maxHeartbeats/maxRecDepth come back as `core` errors', () => {
  it('HAMMER moves past a candidate that exhausts maxRecDepth to the next one', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "100000 + 1 = 100001"'));
    // The portfolio: assumption (fails), rfl and decide (maxRecDepth: `core`), omega (proves it).
    const hammer = await e.execute(engineCommand('HAMMER 5'));
    expect(hammer).toMatchObject({ error: '', response: { goal: 'True' } });
    const done = await e.execute(engineCommand('END'));
    expect(done.script).toContain('  omega\n');
  });

  it('a tactic that exhausts maxHeartbeats is a failed step: the session stays where it was', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "∀ (p : Prop), p → loop = loop"'));
    await e.execute(engineCommand('APPLY intro p hp'));
    const heavy = await e.execute(engineCommand('APPLY simp_all'));
    expect(heavy.error).toMatch(/^fail: \(deterministic\) timeout at `whnf`, maximum number of heartbeats \(200000\) has been reached$/);
    expect(await e.execute(engineCommand('APPLY rfl'))).toMatchObject({ error: '', step: 3 });
  });
});

