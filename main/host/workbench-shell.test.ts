import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createWorkbenchShell } from './workbench-shell.ts';

/** A missing backend answers at once with one clear reason: the workbench never hangs on it. */
async function firstError(backend: 'lean' | 'isabelle', extra: object): Promise<{ problems: string[]; answer: string }> {
  const ws = await createWorkbenchShell({ backend, ...extra });
  try {
    const [created] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
    const channel = created?.CHANNEL ?? 1;
    const [goal] = await Promise.all(ws.shell.submitLine(`${channel} GOAL "True"`));
    expect(ws.available).toBe(false);
    return { problems: ws.problems, answer: String(goal?.ERR ?? JSON.stringify(goal)) };
  } finally {
    await ws.dispose();
  }
}

describe('workbench shell with a missing backend', () => {
  it('lean with the user\'s Pantograph command that does not exist', async () => {
    const { problems, answer } = await firstError('lean', { lean: { pantograph: '/nonexistent/pantograph-repl', imports: ['Init'], leanOptions: [] } });
    expect(problems.join('\n')).toMatch(/Pantograph not found \('\/nonexistent\/pantograph-repl'\)/);
    expect(answer).toMatch(/unavailable/);
  }, 10_000);

  it('isabelle without an Isa-REPL server, and with a server command that is not on PATH', async () => {
    const none = await firstError('isabelle', { isabelle: {} });
    expect(none.problems).toEqual([expect.stringMatching(/^no Isa-REPL server configured: give the address of a running one .*the Provers page/)]);
    expect(none.answer).toMatch(/unavailable: no Isa-REPL server configured/);
    const bad = await firstError('isabelle', { isabelle: { serverCommand: 'no-such-repl-server --x' } });
    expect(bad.problems).toEqual([expect.stringMatching(/'no-such-repl-server --x' does not start an executable on PATH/)]);
  }, 10_000);
});

describe('workbench shell with the isabelle backend (Isa-REPL TEST DOUBLE started as the server)', () => {
  it('starts the configured server command and proves through Minilang', async () => {
    const double = fileURLToPath(new URL('../provers/isabelle/test-fixtures/isa-repl-double-server.ts', import.meta.url));
    const ws = await createWorkbenchShell({ backend: 'isabelle', isabelle: { serverCommand: `${process.execPath} --import ${import.meta.resolve('tsx')} ${double}` }, timeoutMs: 5000 });
    try {
      expect(ws.problems).toEqual([]);
      expect(ws.available).toBe(true);
      const [created] = await Promise.all(ws.shell.submitLine('NEW_CHANNEL'));
      const channel = created?.CHANNEL as number;
      expect((await Promise.all(ws.shell.submitLine(`${channel} GOAL "A ⟶ A"`)))[0]).toMatchObject({ ERR: '', STEP: 1 });
      const [end] = await Promise.all(ws.shell.submitLine(`${channel} END`));
      expect(end).toMatchObject({ ERR: '', STEP: 2, RESPONSE: { goal: [] } });
      expect(end?.SCRIPT).toContain('by (min_script');
    } finally {
      await ws.dispose();
    }
  }, 60_000);
});
