import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startProcess } from './process-manager.ts';
import { cpuMs, descendants, listProcesses } from './process-tree.ts';

/**
 * Attack on `cpuMs` (process-tree.ts), which the document-scale benchmark reads around a run: whatever pid and
 * thread id it is given — nonsense numbers, a thread of another process, a zombie, a process gone — it answers
 * a number of milliseconds or undefined, and never throws.
 */
describe('cpuMs never throws', () => {
  it('nonsense pids and thread ids are undefined', () => {
    for (const pid of [Number.NaN, -1, 0, 1.5, Infinity, -Infinity, 2 ** 31, 2 ** 53]) {
      expect(cpuMs(pid)).toBeUndefined();
      expect(cpuMs(process.pid, pid)).toBeUndefined();
    }
    // Not numbers at all (a caller outside TypeScript): still no path outside /proc/<pid>/task/<tid>.
    expect(cpuMs('self' as unknown as number)).toBeUndefined();
    expect(cpuMs('../self' as unknown as number, 'self' as unknown as number)).toBeUndefined();
  });

  it("this process's threads: each a number that never decreases; a thread under another pid is undefined", async () => {
    // The worker spins until its own thread has run 300 ms on a CPU (not 300 ms of a loaded clock).
    const worker = new Worker('const fs = require("node:fs"); const ran = () => Number(fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6; while (ran() < 300) {} require("node:worker_threads").parentPort.postMessage(1); setInterval(() => {}, 1000);', { eval: true });
    try {
      await once(worker, 'message');
      const tids = readdirSync(`/proc/${process.pid}/task`).map(Number);
      expect(tids.length).toBeGreaterThan(1);
      const first = tids.map((tid) => cpuMs(process.pid, tid));
      for (const ms of first) expect(typeof ms === 'number' || ms === undefined).toBe(true);
      expect(first.filter((ms) => ms !== undefined).length).toBeGreaterThan(1);
      // The worker ran 300 ms on a thread of its own: some thread other than the main one shows it.
      expect(Math.max(...tids.filter((t) => t !== process.pid).map((tid) => cpuMs(process.pid, tid) ?? 0))).toBeGreaterThan(150);
      const again = tids.map((tid) => cpuMs(process.pid, tid));
      again.forEach((ms, i) => {
        if (ms !== undefined && first[i] !== undefined) expect(ms).toBeGreaterThanOrEqual(first[i] as number);
      });
      const other = startProcess({ sandbox: false, program: 'sleep', args: ['30'] });
      try {
        expect(cpuMs(other.pid as number, tids.find((t) => t !== process.pid) as number)).toBeUndefined();
      } finally {
        other.kill();
        await other.exited;
      }
    } finally {
      await worker.terminate();
    }
  });

  it('a zombie and a reaped process', async () => {
    // The subshell exits at once and its parent (`sleep`, after exec) never reaps it: a zombie below sleep.
    const parent = startProcess({ sandbox: false, program: 'sh', args: ['-c', '(exit 0) & exec sleep 30'] });
    try {
      let zombie: number | undefined;
      for (let i = 0; i < 200 && zombie === undefined; i++) {
        zombie = descendants(parent.pid as number, listProcesses()).find((p) => p.pid !== parent.pid)?.pid;
        if (zombie === undefined) await new Promise((r) => setImmediate(r));
      }
      if (zombie !== undefined) {
        const ms = cpuMs(zombie);
        expect(ms === undefined || (Number.isFinite(ms) && ms >= 0)).toBe(true);
      }
    } finally {
      parent.kill();
      await parent.exited;
    }
    // Gone and reaped: undefined (unless the pid was reused, then some process's figure, still a number).
    const gone = parent.pid as number;
    const ms = cpuMs(gone);
    expect(ms === undefined || Number.isFinite(ms)).toBe(true);
  });
});
