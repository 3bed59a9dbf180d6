import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PassThroughEngine } from './pass-through-engine.ts';
import type { PassThroughOptions } from './pass-through-engine.ts';
import { engineCommand } from '../../shell/testing/engine-command.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./test-fixtures/channel-process-fixture.ts', import.meta.url));

const engines: PassThroughEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
});

function engine(extra: Partial<PassThroughOptions> = {}): PassThroughEngine {
  const e = new PassThroughEngine({ command: process.execPath, args: ['--import', 'tsx', fixture], cwd: root, timeoutMs: 2000, graceMs: 500, ...extra });
  engines.push(e);
  return e;
}

describe('PassThroughEngine against a real channel-protocol process (test fixture)', () => {
  it('passes commands through, numbers steps, keeps STATE, tree view and the reproduction script', async () => {
    const e = engine();
    expect(await e.execute(engineCommand('GOAL "A --> A"'))).toMatchObject({ error: '', step: 1, response: { goal: 'A --> A' } });
    expect(await e.execute(engineCommand('HAVE h "A"'))).toMatchObject({ error: '', step: 2 });
    expect(e.treeView()).toMatchObject({ kind: 'bundle', children: [{ goal: 'A', current: 'goal' }, { goal: 'A --> A', ctxt: { hyps: [{ name: 'h', expr: 'A' }] } }] });
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ error: '', step: 2 });
    expect((await e.execute(engineCommand('END'))).step).toBe(3);
    const done = await e.execute(engineCommand('END'));
    expect(done).toMatchObject({ error: '', step: 4, response: { ctxt: { vars: [], hyps: [] }, goal: [] } });
    expect(done.script).toContain('lemma "A --> A"');
    expect(e.reproductionScript()).toBe(done.script);
    expect(e.status()).toMatchObject({ backend: 'external', step: 4, finished: true });
    // The process has no SCRIPT command: the saved script answers instead.
    expect(await e.execute(engineCommand('SCRIPT'))).toMatchObject({ error: '', response: done.script });
  });

  it('passes the process errors through unchanged and keeps the state', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "P"'));
    await e.execute(engineCommand('APPLY unprovable'));
    expect(await e.execute(engineCommand('END'))).toMatchObject({ error: 'fail', step: 2 });
    expect(await e.execute(engineCommand('CRUSH'))).toMatchObject({ error: 'unknown command: CRUSH', step: 2 });
  });

  it('REVERT restarts the process and replays steps 1..n when the process has no history', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "G"'));
    await e.execute(engineCommand('APPLY one'));
    const pid = e.status().pid;
    await e.execute(engineCommand('APPLY two'));
    expect(await e.execute(engineCommand('REVERT 2'))).toMatchObject({ error: '', step: 2, response: { goal: 'one' } });
    expect(e.status().pid).not.toBe(pid);
    expect(await e.execute(engineCommand('APPLY three'))).toMatchObject({ error: '', step: 3, response: { goal: 'three' } });
    expect(await e.execute(engineCommand('REVERT 9'))).toMatchObject({ error: 'bad step: 9 (1..3)' });
  });

  it('a crash of the process: clear error, restart, replay to the last good step', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "G"'));
    await e.execute(engineCommand('APPLY one'));
    const pid = e.status().pid;
    const r = await e.execute(engineCommand('APPLY CRASH'));
    expect(r.error).toMatch(/^crashed: the external process exited with code 3; restarted and replayed to step 2$/);
    expect(r.step).toBe(2);
    expect(e.status().pid).not.toBe(pid);
    expect(await e.execute(engineCommand('APPLY two'))).toMatchObject({ error: '', step: 3, response: { goal: 'two' } });
  });

  it('malformed output: clear error, restart, replay', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "G"'));
    const r = await e.execute(engineCommand('APPLY GARBAGE'));
    expect(r.error).toBe('malformed response from the external process: *** Isabelle says: this is not JSON; restarted and replayed to step 1');
    expect(await e.execute(engineCommand('STATE'))).toMatchObject({ error: '', step: 1, response: { goal: 'G' } });
    expect(await e.execute(engineCommand('APPLY x'))).toMatchObject({ error: '', step: 2 });
  });

  it('a slow answer past the limit: timeout, the process is killed and the proof replayed', async () => {
    const e = engine({ timeoutMs: 300, graceMs: 200 });
    await e.execute(engineCommand('GOAL "G"'));
    const pid = e.status().pid;
    const started = Date.now();
    expect(await e.execute(engineCommand('APPLY SLOW'))).toMatchObject({ error: 'timeout', step: 1 });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(e.status().pid).not.toBe(pid);
    expect(await e.execute(engineCommand('APPLY fast'))).toMatchObject({ error: '', step: 2, response: { goal: 'fast' } });
  });

  it('a command that does not exist is one clear error, not a hang', async () => {
    const e = engine({ command: '/nonexistent/isabelle-shell', args: [] });
    const r = await e.execute(engineCommand('GOAL "G"'));
    expect(r.error).toMatch(/^unavailable: cannot start \/nonexistent\/isabelle-shell/);
    expect((await e.execute(engineCommand('GOAL "G"'))).error).toBe(r.error);
  });

  it('dispose kills the process; later commands answer bad channel', async () => {
    const e = engine();
    await e.execute(engineCommand('GOAL "G"'));
    const pid = e.status().pid as number;
    await e.dispose();
    expect(() => process.kill(pid, 0)).toThrow();
    expect((await e.execute(engineCommand('STATE'))).error).toBe('bad channel');
  });
});
