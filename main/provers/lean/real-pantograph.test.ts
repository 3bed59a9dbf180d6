import { describe, expect, it } from 'vitest';
import { TacticEngine } from '../../shell/tactic-engine.ts';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import type { ShellCommand } from '../../../shared/protocol/shell-command.ts';
import { findExecutable } from './find-executable.ts';
import { createLeanBackend } from './lean-backend.ts';
import { leanSettingsFromEnv } from './lean-config.ts';

// Runs only where Lean and Pantograph are installed (ARBOR_PANTOGRAPH or `pantograph-repl` on PATH).
const settings = leanSettingsFromEnv();
const command = settings.pantograph.split(/\s+/)[0] ?? '';
const missing = [findExecutable('lean') ? undefined : 'lean', findExecutable(command) ? undefined : `Pantograph (${command})`].filter(Boolean);
const reason = missing.length > 0 ? `skipped: ${missing.join(' and ')} not found on PATH (install Lean with elan and build Pantograph's repl)` : '';

function cmd(text: string): Exclude<ShellCommand, { name: 'NEW_CHANNEL' | 'RELEASE_CHANNEL' | 'CANCEL' }> {
  const parsed = parseRequest(text);
  if ('error' in parsed || parsed.command.name === 'NEW_CHANNEL' || parsed.command.name === 'RELEASE_CHANNEL' || parsed.command.name === 'CANCEL') throw new Error('bad test command');
  return parsed.command;
}

describe.skipIf(missing.length > 0)(`real Pantograph ${reason}`, () => {
  it('proves p ∧ q from p and q and prints a script Lean accepts', async () => {
    const backend = createLeanBackend(settings);
    const e = new TacticEngine({ backend: 'lean', timeoutMs: 20_000, openSession: () => backend.open({ timeoutMs: 20_000 }) });
    try {
      expect((await e.execute(cmd('GOAL "∀ (p q : Prop), p → q → p ∧ q"'))).error).toBe('');
      expect((await e.execute(cmd('APPLY intro p q hp hq'))).error).toBe('');
      expect((await e.execute(cmd('HAVE h "1 + 1 = 2"'))).error).toBe('');
      expect((await e.execute(cmd('END'))).error).toBe('');
      expect((await e.execute(cmd('APPLY constructor'))).error).toBe('');
      expect((await e.execute(cmd('NEXT'))).error).toBe('');
      const done = await e.execute(cmd('END'));
      expect(done.error).toBe('');
      expect(done.script).toMatch(/^theorem arbor_goal/m);
    } finally {
      await e.dispose();
    }
  }, 180_000);
});

it.runIf(missing.length > 0)(`real Pantograph test ${reason}`, () => {
  expect(reason).not.toBe('');
});
