import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ProcessUsageSampler } from './process-usage.ts';

describe.runIf(process.platform === 'linux')('ProcessUsageSampler (Linux /proc)', () => {
  it('sees a busy process use CPU and reports its memory', async () => {
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end) {}']);
    try {
      const sampler = new ProcessUsageSampler();
      const first = await sampler.sample(busy.pid as number);
      expect(first?.rssMb).toBeGreaterThan(5);
      await new Promise((r) => setTimeout(r, 600));
      const second = await sampler.sample(busy.pid as number);
      expect(second?.cpuPercent).toBeGreaterThan(20);
    } finally {
      busy.kill('SIGKILL');
    }
  });

  it('answers undefined for a process that does not exist', async () => {
    expect(await new ProcessUsageSampler().sample(2 ** 22 + 12345)).toBeUndefined();
  });
});
