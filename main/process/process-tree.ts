import { readdirSync, readFileSync } from 'node:fs';

/** One process as Linux's /proc shows it (for tests and diagnostics of what Arbor left running). */
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  name: string;
}

/** Every process on the machine now (Linux; elsewhere an empty list). */
export function listProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // state is fields[0]: zombies are already dead.
      if (fields[0] === 'Z') continue;
      out.push({ pid: Number(n), name: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // Gone while we looked.
    }
  }
  return out;
}

/** The processes below `root` (children, their children, …). */
export function descendants(root: number, all = listProcesses()): ProcInfo[] {
  const found: ProcInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop() as number;
    for (const p of all) {
      if (p.ppid === parent && !found.some((f) => f.pid === p.pid)) {
        found.push(p);
        frontier.push(p.pid);
      }
    }
  }
  return found;
}

/**
 * CPU time one thread has spent running so far, in milliseconds (Linux's schedstat: nanoseconds on a CPU,
 * no clock-tick rounding); `tid` defaults to the process's main thread. Undefined when it cannot be read
 * (gone, or not Linux). For benchmarks: what a prover or Arbor's own thread cost, beside the wall clock.
 */
export function cpuMs(pid: number, tid = pid): number | undefined {
  try {
    const first = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0];
    const ns = Number(first);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
