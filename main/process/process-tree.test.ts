import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuMs, descendants, listProcesses } from './process-tree.ts';

describe('process tree', () => {
  it('lists a child under this process', async () => {
    const child = spawn('sleep', ['30']);
    try {
      expect(descendants(process.pid, listProcesses()).map((p) => p.pid)).toContain(child.pid);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  it('cpuMs: a busy process gains CPU time, a sleeping one does not; a missing pid is undefined', async () => {
    const busy = spawn(process.execPath, ['-e', 'const t = Date.now(); while (Date.now() - t < 400) {} ; process.stdout.write("done"); setInterval(() => {}, 1000)']);
    const idle = spawn('sleep', ['30']);
    try {
      await once(busy.stdout, 'data');
      // It spun 400 ms, then idles (alive) until killed.
      const spent = cpuMs(busy.pid as number);
      const slept = cpuMs(idle.pid as number);
      expect(spent).toBeDefined();
      expect(spent as number).toBeGreaterThan(200);
      expect(slept).toBeDefined();
      expect(slept as number).toBeLessThan(50);
      expect(cpuMs(2 ** 22 + 12345)).toBeUndefined();
    } finally {
      busy.kill('SIGKILL');
      idle.kill('SIGKILL');
      await Promise.all([once(busy, 'exit'), once(idle, 'exit')]);
    }
  });
});
