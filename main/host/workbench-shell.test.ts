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

  it('isabelle without a command line, and with one that is not on PATH', async () => {
    const none = await firstError('isabelle', {});
    expect(none.problems).toEqual([expect.stringMatching(/^no Isabelle command line configured: set it on the Provers page/)]);
    expect(none.answer).toMatch(/unavailable: no Isabelle command line configured/);
    const bad = await firstError('isabelle', { isabelleCommand: 'no-such-isabelle-shell --x' });
    expect(bad.problems).toEqual([expect.stringMatching(/'no-such-isabelle-shell --x' does not start an executable on PATH/)]);
  }, 10_000);
});
