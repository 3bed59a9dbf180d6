import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { AgentSession } from './agent-session.ts';
import { inProcessPort } from './in-process-port.ts';

/**
 * Issue 21 attacked through try_commands (real coqidetop): an alternative may hold any command, so it may
 * try to finish another statement than the session's goal, or change notations mid-proof. The label is
 * about the session's goal: `False` is never labelled closed by a proof of `True`.
 */
describe('try_commands labels only what closes the session\'s own goal', () => {
  let factory: EngineFactory;
  let shell: Shell;
  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 10_000, poolSize: 1 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  }, 60_000);
  afterAll(async () => {
    await shell?.close();
    await factory?.dispose();
  });

  it('a sequence may not start another GOAL nor DEFINE a notation mid-proof; exact I does not close False', async () => {
    const session = new AgentSession({ port: inProcessPort(shell), channel: 0, toolTimeoutMs: 60_000 });
    try {
      await Promise.all(shell.submitLine('GOAL "False"'));
      // Another theorem cannot be started on the scratch copy at all.
      await expect(session.tryCommands([['GOAL "True"', 'APPLY (exact I)', 'END']])).rejects.toThrow(/GOAL is not allowed/);
      // Nor can notations be redefined on it mid-proof.
      await expect(session.tryCommands([['DEFINE "Notation \\"\'False\'\\" := (True)."', 'APPLY (exact I)']])).rejects.toThrow(/DEFINE is not allowed/);
      const [plain] = await session.tryCommands([['APPLY (exact I)']]);
      expect(plain?.label).toBe('invalid');
    } finally {
      await session.close();
    }
  }, 180_000);

  it('after a DEFINE that overrides False in type_scope (allowed since the notation guard went), exact I is never plainly closes_goal', async () => {
    const [defined] = await Promise.all(shell.submitLine('DEFINE "Notation \\"\'False\'\\" := True : type_scope."'));
    expect(defined?.ERR).toBe('');
    await Promise.all(shell.submitLine('GOAL "False"'));
    const session = new AgentSession({ port: inProcessPort(shell), channel: 0, toolTimeoutMs: 60_000 });
    try {
      const [r] = await session.tryCommands([['APPLY (exact I)']]);
      // Either the copy does not have the override (the step fails) or the label says what False means here.
      expect(r?.label, JSON.stringify(r)).not.toBe('closes_goal');
      if (r?.label === 'closes_goal_different_meaning') expect(JSON.stringify(r.statement)).toMatch(/clean reading has `Coq\.Init\.Logic\.False`/);
      else expect(r?.label).toBe('invalid');
    } finally {
      await session.close();
    }
  }, 180_000);
});
