import { readFile } from 'node:fs/promises';

/** CPU (percent of one core, since the previous sample) and resident memory of a process. */
export interface ProcessUsage {
  cpuPercent: number;
  rssMb: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux architecture Node supports

/**
 * Samples processes' CPU and memory from Linux's /proc. Elsewhere (macOS, Windows) `sample` answers
 * undefined and the channels panel shows a dash: better nothing than a wrong figure.
 */
export class ProcessUsageSampler {
  private readonly last = new Map<number, { ticks: number; at: number }>();

  async sample(pid: number): Promise<ProcessUsage | undefined> {
    try {
      const [stat, status] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8')]);
      // Fields after the parenthesised command name (which may contain spaces): utime and stime are the
      // 12th and 13th of them.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      const now = Date.now();
      const previous = this.last.get(pid);
      this.last.set(pid, { ticks, at: now });
      const seconds = previous ? (now - previous.at) / 1000 : 0;
      const cpuPercent = previous && seconds > 0 ? ((ticks - previous.ticks) / TICKS_PER_SECOND / seconds) * 100 : 0;
      if (!Number.isFinite(ticks) || !Number.isFinite(rssKb)) return undefined;
      return { cpuPercent: Math.max(0, cpuPercent), rssMb: rssKb / 1024 };
    } catch {
      this.last.delete(pid);
      return undefined;
    }
  }

  /** Forgets processes that are no longer sampled. */
  retain(pids: Iterable<number>): void {
    const keep = new Set(pids);
    for (const pid of this.last.keys()) if (!keep.has(pid)) this.last.delete(pid);
  }
}
