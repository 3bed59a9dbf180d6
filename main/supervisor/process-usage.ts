import pidusage from 'pidusage';

/** CPU (percent of one core, since the previous sample) and resident memory of a process. */
export interface ProcessUsage {
  cpuPercent: number;
  rssMb: number;
}

/**
 * Samples a process's CPU and memory for the channels panel, with pidusage (which reads /proc on Linux
 * and asks `ps` elsewhere). A process that is gone answers undefined: better a dash than a wrong figure.
 */
export class ProcessUsageSampler {
  private readonly seen = new Set<number>();

  async sample(pid: number): Promise<ProcessUsage | undefined> {
    try {
      const s = await pidusage(pid);
      this.seen.add(pid);
      return { cpuPercent: Math.max(0, s.cpu), rssMb: s.memory / (1024 * 1024) };
    } catch {
      this.seen.delete(pid);
      return undefined;
    }
  }

  /** Forgets processes that are no longer sampled (pidusage keeps per-pid history until told). */
  retain(pids: Iterable<number>): void {
    const keep = new Set(pids);
    for (const pid of this.seen) {
      if (keep.has(pid)) continue;
      this.seen.delete(pid);
      pidusage.clear();
    }
  }
}
