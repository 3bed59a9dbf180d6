import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startProcess } from './process-manager.ts';
import { cpuMs, descendants, listProcesses } from './process-tree.ts';

describe('process tree', () => {
  it('lists a child under this process', async () => {
    const child = startProcess({ sandbox: false, program: 'sleep', args: ['30'] });
    try {
      expect(descendants(process.pid, listProcesses()).map((p) => p.pid)).toContain(child.pid);
    } finally {
      child.kill();
      await child.exited;
    }
  });

  it('cpuMs: a busy process gains CPU time, a sleeping one does not; a missing pid is undefined', async () => {
    const busy = startProcess({ sandbox: false, program: process.execPath, args: ['-e', 'const ran = () => Number(require("node:fs").readFileSync("/proc/self/schedstat", "utf8").split(" ")[0]) / 1e6; while (ran() < 400) {} ; process.stdout.write("done"); setInterval(() => {}, 1000)'] });
    const idle = startProcess({ sandbox: false, program: 'sleep', args: ['30'] });
    try {
      await once(busy.stdout, 'data');
      // It ran 400 ms on a CPU (by its own count, whatever the load), then idles (alive) until killed.
      const spent = cpuMs(busy.pid as number);
      const slept = cpuMs(idle.pid as number);
      expect(spent).toBeDefined();
      expect(spent as number).toBeGreaterThan(200);
      expect(slept).toBeDefined();
      expect(slept as number).toBeLessThan(50);
      expect(cpuMs(2 ** 22 + 12345)).toBeUndefined();
    } finally {
      busy.kill();
      idle.kill();
      await Promise.all([busy.exited, idle.exited]);
    }
  });
});
