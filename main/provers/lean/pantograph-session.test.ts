import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import type { ShellCommand } from '../../../shared/protocol/shell-command.ts';
import { TacticEngine } from '../../shell/tactic-engine.ts';
import { ProverError } from '../../shell/prover-session.ts';
import type { ProverSession } from '../../shell/prover-session.ts';
import { createLeanBackend } from './lean-backend.ts';
import type { LeanSettings } from './lean-config.ts';

/** Provers run in a working directory of their own, where a bare `tsx` would not resolve: import it by URL. */
const TSX_LOADER = import.meta.resolve('tsx');

// The Pantograph TEST DOUBLE (a real process answering with Pantograph's JSON shapes): see test-fixtures.
const double = fileURLToPath(new URL('./test-fixtures/pantograph-double.ts', import.meta.url));
const doubleCommand = `${process.execPath} --import ${TSX_LOADER} ${double}`;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
  delete process.env.PANTOGRAPH_DOUBLE_DIALECT;
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

function cmd(text: string): Exclude<ShellCommand, { name: 'NEW_CHANNEL' | 'RELEASE_CHANNEL' | 'CANCEL' }> {
  const parsed = parseRequest(text);
  if ('error' in parsed) throw new Error(parsed.error);
  if (parsed.command.name === 'NEW_CHANNEL' || parsed.command.name === 'RELEASE_CHANNEL' || parsed.command.name === 'CANCEL') throw new Error('not an engine command');
  return parsed.command;
}

describe('PantographSession against the Pantograph test double', () => {
  it('a structured proof through the shell semantics, and its Lean script', async () => {
    const e = engine();
    expect(await e.execute(cmd('GOAL "∀ (p q : Prop), p → q → p ∧ q"'))).toMatchObject({ error: '', step: 1 });
    expect(await e.execute(cmd('APPLY intro p q hp hq'))).toMatchObject({
      error: '', response: { ctxt: { vars: [{ name: 'p', type: 'Prop' }, { name: 'q', type: 'Prop' }, { name: 'hp', type: 'p' }, { name: 'hq', type: 'q' }], hyps: [] }, goal: 'p ∧ q' },
    });
    const have = await e.execute(cmd('HAVE h "1 + 1 = 2"'));
    expect(have.response).toMatchObject({ goal: [{ goal: '1 + 1 = 2' }, { goal: 'p ∧ q', ctxt: { hyps: [{ name: 'h', expr: '1 + 1 = 2' }] } }] });
    expect(await e.execute(cmd('END'))).toMatchObject({ error: '', step: 4 });
    expect(await e.execute(cmd('APPLY constructor'))).toMatchObject({ error: '', response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
    expect(await e.execute(cmd('NEXT'))).toMatchObject({ error: '' });
    const done = await e.execute(cmd('END'));
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
  });

  it('OBTAIN: the claim first, then the main goal with the witnesses; one obtain in the script', async () => {
    const e = engine();
    await e.execute(cmd('GOAL "∀ (m : ℕ), m = 4 → m = 4"'));
    await e.execute(cmd('APPLY intro m hm'));
    const r = await e.execute(cmd('OBTAIN k :: ℕ where hk: "m = 2 * k"'));
    expect(r).toMatchObject({ error: '', response: { goal: [{ goal: '∃ (k : ℕ), (m = 2 * k)' }, { goal: 'm = 4', ctxt: { vars: [{ name: 'k', type: 'ℕ' }], hyps: [{ name: 'hk', expr: 'm = 2 * k' }] } }] } });
    expect((await e.execute(cmd('SCRIPT'))).response).toContain('  obtain ⟨k, hk⟩ : ∃ (k : ℕ), (m = 2 * k) := by\n    sorry\n  sorry');
  });

  it('failures, parse errors, bad rules and sorry leave the state unchanged', async () => {
    const e = engine();
    await e.execute(cmd('GOAL "∀ (n : ℕ), n = n"'));
    expect((await e.execute(cmd('APPLY frobnicate'))).error).toBe('parse error: <input>:1:0: unknown tactic');
    expect((await e.execute(cmd('APPLY constructor'))).error).toMatch(/^fail: tactic 'constructor' failed/);
    expect((await e.execute(cmd('UNFOLD nonexistent'))).error).toBe('bad rule: not an equation');
    expect((await e.execute(cmd('APPLY sorry'))).error).toMatch(/sorry/);
    expect((await e.execute(cmd('CRUSH'))).error).toBe('fail: simp_all made no progress');
    expect(await e.execute(cmd('STATE'))).toMatchObject({ error: '', step: 1, response: { goal: '∀ (n : ℕ), n = n' } });
    expect((await e.execute(cmd('GOAL "(1 + "'))).error).toMatch(/^parse error: /);
  });

  it('HAMMER runs the portfolio and records the tactic that worked (exact? → its suggestion)', async () => {
    const e = engine();
    await e.execute(cmd('GOAL "∀ (p : Prop), p → p"'));
    await e.execute(cmd('APPLY intro p hp'));
    expect(await e.execute(cmd('HAMMER 5'))).toMatchObject({ error: '', response: { goal: 'True' } });
    const done = await e.execute(cmd('END'));
    expect(done.script).toContain('  assumption\n');
    const s = await open();
    await s.start('∀ (n : ℕ), n + 0 = n');
    const noProof = s.step({ kind: 'hammer', timeoutMs: 3000 });
    await expect(noProof).rejects.toMatchObject({ code: 'fail' });
  });

  it('REVERT restores an earlier Pantograph state id', async () => {
    const e = engine();
    await e.execute(cmd('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(cmd('APPLY intro p q hp hq'));
    await e.execute(cmd('APPLY constructor'));
    expect(await e.execute(cmd('REVERT 2'))).toMatchObject({ error: '', step: 2, response: { goal: 'p ∧ q' } });
    expect(await e.execute(cmd('APPLY constructor'))).toMatchObject({ error: '', step: 3 });
  });

  it('Pantograph interrupts a tactic past the timeout option: timeout, same process, state kept', async () => {
    const s = await open({}, 300);
    await s.start('∀ (n : ℕ), n = n');
    const pid = s.pid;
    await expect(s.step({ kind: 'apply', tactic: 'sleep 5000' })).rejects.toMatchObject({ code: 'timeout', message: 'timeout' });
    expect(s.pid).toBe(pid);
    expect((await s.step({ kind: 'apply', tactic: 'intro n' })).goals).toEqual([{ context: [{ kind: 'var', name: 'n', text: 'ℕ' }], goal: 'n = n' }]);
  });

  it('older Pantograph (no timeout option): Arbor kills the silent REPL, restarts and replays', async () => {
    process.env.PANTOGRAPH_DOUBLE_DIALECT = '0.2';
    const s = await open({ graceMs: 300 }, 300);
    await s.start('∀ (p q : Prop), p → q → p ∧ q');
    await s.step({ kind: 'apply', tactic: 'intro p q hp hq' });
    const pid = s.pid;
    await expect(s.step({ kind: 'apply', tactic: 'sleep 5000' })).rejects.toMatchObject({ code: 'timeout' });
    expect(s.pid).not.toBe(pid);
    expect((await s.goals())[0]?.goal).toBe('p ∧ q');
    const split = await s.step({ kind: 'apply', tactic: 'constructor' });
    expect(split.goals.map((g) => g.goal)).toEqual(['p', 'q']);
  });

  it('a crashed REPL: crashed error, new process, replayed to the last good step', async () => {
    const e = engine();
    await e.execute(cmd('GOAL "∀ (p q : Prop), p → q → p ∧ q"'));
    await e.execute(cmd('APPLY intro p q hp hq'));
    const pid = e.status().pid;
    const r = await e.execute(cmd('APPLY crash!'));
    expect(r.error).toMatch(/^prover crashed: Pantograph exited with code 1; restarted and replayed$/);
    expect(r.step).toBe(2);
    const after = await e.execute(cmd('APPLY constructor'));
    expect(after).toMatchObject({ error: '', step: 3, response: { goal: [{ goal: 'p' }, { goal: 'q' }] } });
    expect(pid).toBeDefined();
  });

  it('rejects a line break in a tactic before it reaches the REPL', async () => {
    const s = await open();
    await s.start('∀ (p : Prop), p → p');
    await expect(s.step({ kind: 'apply', tactic: 'intro p hp\nexact hp' })).rejects.toMatchObject({ code: 'parse' });
  });

  it('a missing Pantograph or a failed import is one clear unavailable error, never a hang', async () => {
    const missing = createLeanBackend(settings({ pantograph: 'pantograph-repl-that-does-not-exist' }));
    await expect(missing.open({ timeoutMs: 1000 })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^Pantograph not found: 'pantograph-repl-that-does-not-exist' is not on PATH/) });
    const badImport = createLeanBackend(settings({ imports: ['NoSuchLibrary'] }));
    await expect(badImport.open({ timeoutMs: 1000 })).rejects.toSatisfy((err: unknown) => err instanceof ProverError && err.code === 'unavailable' && /could not start: io: unknown module prefix 'NoSuchLibrary'/.test(err.message));
    const check = await missing.check();
    expect(check).toMatchObject({ backend: 'lean', available: false });
    expect(check.problems.join('\n')).toMatch(/Pantograph not found/);
  });

  it('check() reports the REPL version it finds', async () => {
    const check = await createLeanBackend(settings()).check();
    expect(check.available).toBe(true);
    expect(check.details.join('\n')).toMatch(/pantograph: .* \(0\.3\.7\/v4\.21\.0; Arbor targets 0\.3\.x/);
  });
});
