import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { CoqideTopClient } from '../main/provers/coq/coqidetop-client.ts';
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
const ROUNDS = 15;

export async function rawStepMs(): Promise<number> {
  const client = await CoqideTopClient.start();
  try {
    // The same environment and the same sentences as the Coq session sends, Add and Goal pipelined as
    // the session pipelines them: the strictest baseline.
    for (const sentence of [...SESSION_ONLY_PRELUDE, ...splitSentences(arborPrelude())]) await client.add(sentence);
    await client.addAndGoals(`Goal (${STEP_GOAL}).`);
    const start = client.tip;
    // Warm-up round, then measure.
    const round = async (): Promise<void> => {
      for (const v of VARS) await client.addAndGoals(`Timeout 10 (intro ${v}).`);
      await client.editAt(start);
    };
    await round();
    const t0 = performance.now();
    for (let r = 0; r < ROUNDS; r++) await round();
    return (performance.now() - t0) / (ROUNDS * VARS.length);
  } finally {
    await client.dispose();
  }
}

export async function shellStepMs(): Promise<number> {
  const shell = new ShellProcess(['--pool', '0']);
  try {
    const goal = await shell.request(`GOAL "${STEP_GOAL}"`);
    if (goal.ERR) throw new Error(goal.ERR);
    const round = async (): Promise<void> => {
      for (const v of VARS) {
        const r = await shell.request(`APPLY intro ${v}`);
        if (r.ERR) throw new Error(r.ERR);
      }
      await shell.request('REVERT 1');
    };
    await round();
    const t0 = performance.now();
    for (let r = 0; r < ROUNDS; r++) await round();
    return (performance.now() - t0) / (ROUNDS * VARS.length);
  } finally {
    await shell.end();
  }
}

/** The same steps through the shell's own code in this process: what the shell adds without the stdio hop. */
export async function inProcessStepMs(): Promise<number> {
  const backend = await loadBackend('coq');
  const factory = createProverEngineFactory(backend, { backend: 'coq', timeoutMs: 10_000, poolSize: 0 });
  const shell = new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude) });
  const request = async (line: string): Promise<void> => {
    const [response] = await Promise.all(shell.submitLine(line));
    if (response?.ERR) throw new Error(response.ERR);
    JSON.stringify(response); // the stdio server serialises every response
  };
  try {
    await request(`GOAL "${STEP_GOAL}"`);
    const round = async (): Promise<void> => {
      for (const v of VARS) await request(`APPLY intro ${v}`);
      await request('REVERT 1');
    };
    await round();
    const t0 = performance.now();
    for (let r = 0; r < ROUNDS; r++) await round();
    return (performance.now() - t0) / (ROUNDS * VARS.length);
  } finally {
    await shell.close();
    await factory.dispose();
  }
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
  log('step overhead: raw coqidetop…');
  const raw = await rawStepMs();
  log('step overhead: shell in-process…');
  const inProcess = await inProcessStepMs();
  log('step overhead: arbor-shell…');
  const shell = await shellStepMs();
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
    { what: 'step overhead ratio, arbor-shell over stdio', value: ratio, unit: 'x', target: '<= 1.15', ok: ratio <= 1.15 },
    { what: 'trivial requests (STATE), warm channel', value: rps, unit: 'resp/s', target: '>= 10000', ok: rps >= 10_000 },
    { what: 'NEW_CHANNEL + GOAL, warm pool (median)', value: median(warm), unit: 'ms', target: '<= 50', ok: median(warm) <= 50 },
    { what: 'NEW_CHANNEL + GOAL, cold (median)', value: median(cold), unit: 'ms' },
    { what: 'hammer 4 goals, one channel', value: par.one, unit: 'ms' },
    { what: 'hammer 4 goals on each of two channels', value: par.two, unit: 'ms' },
    { what: 'parallel wall ratio (two / one)', value: par.two / par.one, unit: 'x', target: '<= 1.25', ok: par.two / par.one <= 1.25 },
    { what: 'arbor-shell RSS, 8 open channels', value: rss, unit: 'MB', target: '<= 120', ok: rss <= 120 },
  ];
  return { rows, raw: { rawStepMs: raw, inProcessStepMs: inProcess, shellStepMs: shell, throughput: rps, warm, cold, parallel: par, rssMb: rss } };
}
