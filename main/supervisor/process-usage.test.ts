import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ProcessUsageSampler } from './process-usage.ts';

describe.runIf(process.platform === 'linux')('ProcessUsageSampler (Linux /proc)', () => {
  it('sees a busy process use more CPU than an idle one, and reports memory', async () => {
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 5000; while (Date.now() < end) {}']);
    const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    try {
      const sampler = new ProcessUsageSampler();
      await new Promise((r) => setTimeout(r, 300)); // let both start
      const first = await sampler.sample(busy.pid as number);
      await sampler.sample(idle.pid as number);
      expect(first?.rssMb).toBeGreaterThan(5);
      await new Promise((r) => setTimeout(r, 1500));
      const busyNow = await sampler.sample(busy.pid as number);
      const idleNow = await sampler.sample(idle.pid as number);
      // Absolute figures depend on the machine's load; the comparison does not.
      expect(busyNow?.cpuPercent).toBeGreaterThan(1);
      expect(busyNow?.cpuPercent ?? 0).toBeGreaterThan(idleNow?.cpuPercent ?? Infinity);
    } finally {
      busy.kill('SIGKILL');
      idle.kill('SIGKILL');
    }
  });

  it('answers undefined for a process that does not exist', async () => {
    expect(await new ProcessUsageSampler().sample(2 ** 22 + 12345)).toBeUndefined();
  });
});
