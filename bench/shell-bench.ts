import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { CoqideTopClient, resolveCoqidetop } from '../main/provers/coq/coqidetop-client.ts';
import { splitSentences } from '../main/provers/coq/coq-sentence.ts';
import { arborPrelude, SESSION_ONLY_PRELUDE } from '../main/provers/coq/prelude.ts';
import { ShellProcess } from '../main/cli/shell-process.ts';
import { Shell } from '../main/shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../main/supervisor/engine-factory.ts';
import type { BenchRow } from './bench-table.ts';
import { median } from './bench-table.ts';

/**
 * The spine's targets (BRIEF §4), each measured side by side in one run: per-step overhead of
 * arbor-shell against raw coqidetop doing the same Add+Goal, trivial-request throughput, NEW_CHANNEL
 * with and without a warm pool, two channels hammering in parallel against one, and the shell's RSS.
 */
const VARS = Array.from({ length: 20 }, (_, i) => `x${i + 1}`);
const STEP_GOAL = `forall ${VARS.join(' ')} : nat, ${VARS.map((v) => `${v} = ${v}`).join(' /\\ ')}`;
const ROUNDS = 25;
/** A process that only passes bytes between the raw client and coqidetop (see the file). */
const RELAY = fileURLToPath(new URL('./stdio-relay.mjs', import.meta.url));

/** One way of running the steps: a round is 20 steps and a step back; `close` ends its processes. */
interface StepRunner { round(): Promise<unknown>; close(): Promise<unknown> }

/** Raw coqidetop; with `binary`, through that program (the byte relay: coqidetop one process further away). */
async function rawRunner(binary?: string): Promise<StepRunner> {
  const client = await CoqideTopClient.start(binary !== undefined ? { binary } : {});
  // The same environment and the same sentences as the Coq session sends, Add and Goal pipelined as
  // the session pipelines them: the strictest baseline.
  for (const sentence of [...SESSION_ONLY_PRELUDE, ...splitSentences(arborPrelude())]) await client.add(sentence);
  await client.addAndGoals(`Goal (${STEP_GOAL}).`);
  const start = client.tip;
  return {
    async round() {
      for (const v of VARS) await client.addAndGoals(`Timeout 10 (intro ${v}).`);
      await client.editAt(start);
      return undefined;
    },
    close: () => client.dispose(),
  };
}

async function stdioRunner(): Promise<StepRunner> {
  const shell = new ShellProcess(['--pool', '0']);
  const goal = await shell.request(`GOAL "${STEP_GOAL}"`);
  if (goal.ERR) throw new Error(goal.ERR);
  return {
    async round() {
      for (const v of VARS) {
        const r = await shell.request(`APPLY intro ${v}`);
        if (r.ERR) throw new Error(r.ERR);
      }
      await shell.request('REVERT 1');
    },
    close: () => shell.end(),
  };
}

/** The same steps through the shell's own code in this process: what the shell adds without the stdio hop. */
async function inProcessRunner(): Promise<StepRunner> {
  const backend = await loadBackend('coq');
  const factory = createProverEngineFactory(backend, { backend: 'coq', timeoutMs: 10_000, poolSize: 0 });
  const shell = new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude) });
  const request = async (line: string): Promise<void> => {
    const [response] = await Promise.all(shell.submitLine(line));
    if (response?.ERR) throw new Error(response.ERR);
    JSON.stringify(response); // the stdio server serialises every response
  };
  await request(`GOAL "${STEP_GOAL}"`);
  return {
    async round() {
      for (const v of VARS) await request(`APPLY intro ${v}`);
      await request('REVERT 1');
    },
    async close() {
      await shell.close();
      await factory.dispose();
    },
  };
}


/**
 * Step time of raw coqidetop, the shell in this process and arbor-shell over stdio, measured side by side:
 * their rounds alternate (raw, in-process, stdio, raw, …), so a burst of load elsewhere on the machine hits
 * all three alike; each figure is the median round, per step.
 */
export async function stepOverheadMs(): Promise<{ raw: number; relay: number; inProcess: number; stdio: number; rawCpu: number; inProcessCpu: number }> {
  const coqidetop = resolveCoqidetop();
  if (!coqidetop) throw new Error('coqidetop not found on PATH');
  process.env.ARBOR_RELAY_TARGET = coqidetop;
  const runners = { raw: await rawRunner(), relay: await rawRunner(RELAY), inProcess: await inProcessRunner(), stdio: await stdioRunner() };
  const times: Record<keyof typeof runners, number[]> = { raw: [], relay: [], inProcess: [], stdio: [] };
  // CPU time of this process per step: what the shell's own code costs, whatever the machine's load.
  const cpu: Record<keyof typeof runners, number[]> = { raw: [], relay: [], inProcess: [], stdio: [] };
  try {
    for (const r of Object.values(runners)) await r.round(); // warm-up
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, r] of Object.entries(runners) as [keyof typeof runners, StepRunner][]) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        await r.round();
        times[name].push((performance.now() - t0) / VARS.length);
        const c = process.cpuUsage(c0);
        cpu[name].push((c.user + c.system) / 1000 / VARS.length);
      }
    }
  } finally {
    for (const r of Object.values(runners)) await r.close();
  }
  return { raw: median(times.raw), relay: median(times.relay), inProcess: median(times.inProcess), stdio: median(times.stdio), rawCpu: median(cpu.raw), inProcessCpu: median(cpu.inProcess) };
}

async function throughput(count: number): Promise<number> {
  const shell = new ShellProcess(['--pool', '0']);
  try {
    await shell.request('GOAL "forall n : nat, n = n"');
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < count; i++) all.push(shell.next());
    const t0 = performance.now();
    shell.write('STATE\n'.repeat(count));
    await Promise.all(all);
    return count / ((performance.now() - t0) / 1000);
  } finally {
    await shell.end();
  }
}

async function newChannelMs(pool: number, samples: number): Promise<number[]> {
  const shell = new ShellProcess(['--pool', String(pool)]);
  const times: number[] = [];
  try {
    await shell.request('GOAL "True"');
    for (let i = 0; i < samples; i++) {
      await sleep(2500); // let the pool refill, as it would between a user's actions
      const t0 = performance.now();
      const created = await shell.request('NEW_CHANNEL');
      const id = (created.RESPONSE as { ID: number }).ID;
      const goal = await shell.request(`${id} GOAL "True"`, id);
      if (goal.ERR) throw new Error(goal.ERR);
      times.push(performance.now() - t0);
      await shell.request(`${id} RELEASE_CHANNEL`, id);
    }
    return times;
  } finally {
    await shell.end();
  }
}

const HAMMER_GOALS = [
  'forall l1 l2 : list nat, length (l1 ++ l2) = length l2 + length l1',
  'forall (A : Type) (l : list A), rev (rev l) = l',
  'forall n m : nat, n <= m -> n < S m',
  'forall (A : Type) (x : A) (l : list A), In x (l ++ x :: nil)',
];

async function hammerAll(shell: ShellProcess, channel: number): Promise<void> {
  for (const goal of HAMMER_GOALS) {
    const g = await shell.request(`${channel} GOAL "${goal}"`, channel);
    if (g.ERR) throw new Error(g.ERR);
    const h = await shell.request(`${channel} HAMMER 90`, channel);
    if (h.ERR) throw new Error(`${goal}: ${h.ERR}`);
  }
}

export async function parallelRatio(): Promise<{ one: number; two: number }> {
  const shell = new ShellProcess(['--pool', '1']);
  try {
    await shell.request('NEW_CHANNEL');
    await shell.request('1 STATE', 1);
    // Warm both channels: CoqHammer's first call in a process spends seconds extracting features, which
    // neither side of the comparison should pay.
    await hammerAll(shell, 0);
    await hammerAll(shell, 1);
    let t0 = performance.now();
    await hammerAll(shell, 0);
    const one = performance.now() - t0;
    t0 = performance.now();
    await Promise.all([hammerAll(shell, 0), hammerAll(shell, 1)]);
    const two = performance.now() - t0;
    return { one, two };
  } finally {
    await shell.end();
  }
}

async function rssWithChannels(channels: number): Promise<number> {
  const shell = new ShellProcess(['--pool', '0']);
  try {
    for (let i = 1; i < channels; i++) await shell.request('NEW_CHANNEL');
    await Promise.all(Array.from({ length: channels }, (_, id) => shell.request(`${id} GOAL "forall n : nat, n + 0 = n"`, id)));
    const status = await readFile(`/proc/${shell.child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  } finally {
    await shell.end();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function runShellBench(log: (s: string) => void): Promise<{ rows: BenchRow[]; raw: unknown }> {
  log('step overhead: raw coqidetop, the shell in-process and arbor-shell over stdio, rounds alternating…');
  const { raw, relay, inProcess, stdio: shell, rawCpu, inProcessCpu } = await stepOverheadMs();
  log('throughput…');
  const rps = await throughput(50_000);
  log('NEW_CHANNEL warm…');
  const warm = await newChannelMs(1, 7);
  log('NEW_CHANNEL cold…');
  const cold = await newChannelMs(0, 5);
  log('two channels hammering…');
  const par = await parallelRatio();
  log('memory…');
  const rss = await rssWithChannels(8);
  const ratio = shell / raw;
  const rows: BenchRow[] = [
    { what: 'step: raw coqidetop Add+Goal (same sentences)', value: raw, unit: 'ms' },
    { what: 'step: Shell in-process APPLY (same sentences)', value: inProcess, unit: 'ms' },
    { what: 'step: arbor-shell process APPLY (stdio)', value: shell, unit: 'ms' },
    { what: 'step overhead ratio, in-process shell', value: inProcess / raw, unit: 'x', target: '<= 1.15', ok: inProcess / raw <= 1.15 },
    { what: 'CPU per step in Node: raw client (XML parsing)', value: rawCpu, unit: 'ms' },
    { what: 'CPU per step in Node: the shell in-process', value: inProcessCpu, unit: 'ms', detail: `the shell's own code: ${((inProcessCpu - rawCpu) * 1000).toFixed(0)} µs per step` },
    { what: 'step overhead ratio, arbor-shell over stdio', value: ratio, unit: 'x', target: '<= 1.15', ok: ratio <= 1.15 },
    { what: 'step: raw coqidetop through a byte relay process', value: relay, unit: 'ms', detail: 'one extra process that only passes bytes' },
    { what: 'step overhead ratio, byte relay alone (the floor of any extra process)', value: relay / raw, unit: 'x' },
    { what: 'arbor-shell over stdio against the byte relay', value: shell / relay, unit: 'x', detail: `what the shell adds beyond the hop: ${((shell - relay) * 1000).toFixed(0)} µs per step` },
    { what: 'trivial requests (STATE), warm channel', value: rps, unit: 'resp/s', target: '>= 10000', ok: rps >= 10_000 },
    { what: 'NEW_CHANNEL + GOAL, warm pool (median)', value: median(warm), unit: 'ms', target: '<= 50', ok: median(warm) <= 50 },
    { what: 'NEW_CHANNEL + GOAL, cold (median)', value: median(cold), unit: 'ms' },
    { what: 'hammer 4 goals, one channel', value: par.one, unit: 'ms' },
    { what: 'hammer 4 goals on each of two channels', value: par.two, unit: 'ms' },
    { what: 'parallel wall ratio (two / one)', value: par.two / par.one, unit: 'x', target: '<= 1.25', ok: par.two / par.one <= 1.25 },
    { what: 'arbor-shell RSS, 8 open channels', value: rss, unit: 'MB', target: '<= 120', ok: rss <= 120 },
  ];
  return { rows, raw: { rawStepMs: raw, relayStepMs: relay, inProcessStepMs: inProcess, rawCpuMs: rawCpu, inProcessCpuMs: inProcessCpu, shellStepMs: shell, throughput: rps, warm, cold, parallel: par, rssMb: rss } };
}
