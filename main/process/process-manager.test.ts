import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { runProcess } from './process-manager.ts';
import { listProcesses } from './process-tree.ts';

/** Running: it exists and is not a zombie waiting for its (new) parent to reap it. */
const isRunning = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('runProcess', () => {
  it('returns what the program printed and its exit code', async () => {
    const r = await runProcess({ program: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'], timeoutMs: 60_000 });
    expect(r).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false });
  });

  it('at its time limit kills what the program forked too, even when that holds its pipes (as CoqHammer ATPs do)', async () => {
    const started = performance.now();
    // The forked sleep keeps stdout open: before the fix, the call waited the full 60 s for it.
    // Unsandboxed, so `$!` is a host pid (the sandboxed case: sandbox.test.ts and the test below).
    const r = await runProcess({ program: 'sh', args: ['-c', 'sleep 60 & echo $!; sleep 60'], timeoutMs: 300, sandbox: false });
    expect(r.timedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(30_000);
    const forked = Number(r.stdout.trim());
    expect(forked).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isRunning(forked)).toBe(false), { timeout: 10_000 });
  }, 40_000);

  it('sandboxed, at its time limit the forked process inside the sandbox dies too', async () => {
    const marker = `${60 + Math.floor(Math.random() * 30)}.${process.pid}`;
    const line = (pid: number): string => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return ''; // gone meanwhile
      }
    };
    const sleepers = (): number[] => listProcesses().filter((p) => p.name === 'sleep' && line(p.pid).includes(marker)).map((p) => p.pid);
    const r = await runProcess({ program: 'sh', args: ['-c', `sleep ${marker} & sleep ${marker}`], timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    await vi.waitFor(() => expect(sleepers()).toEqual([]), { timeout: 10_000 });
  }, 40_000);
});
