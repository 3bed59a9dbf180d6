/**
 * `npm run bench:aim-advisor`: does `arbor advisor` help the real AIMLEAP prover? AIMLEAP is built
 * from its public source in the set-up (main/provers/eq/test-fixtures/aimleap-build.ts; nothing of it is kept in Arbor), then
 * every sampled AIM problem is run with `-abslimit 100 -maxdepth 10`:
 *   none       no advisor (`-constdist 8.0`, AIMLEAP's documented advisor-less run)
 *   batch      `-advisorsocket P`            (messages 0, 1, 4: middle terms, states, 177-slot batches)
 *   dyndist    `-advisorsocket P -dyndist`   (messages 0, 1, 2, 3: one estimate per option)
 *   constdist  `-advisorsocket P -constdist 8.0` (messages 0, 1: middle terms only)
 * The advisor is one `arbor advisor --preamble preamble.txt` process (started as a user would, through
 * bin/arbor.js), which AIMLEAP connects to once per run. Runs are sequential. Results: a table on
 * stdout and bench/results/aim-advisor-*.json.
 *
 *   npm run bench:aim-advisor -- [--sample N] [--seed S] [--search-ms MS] [--modes none,batch,dyndist,constdist]
 *   AIMLEAP_SRC=/path/to/aimleap (a clone or bare git dir) when there is no network; see main/provers/eq/test-fixtures/aimleap-build.ts
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runProcess, startProcess } from '../main/process/process-manager.ts';
import { buildAimleap } from '../main/provers/eq/test-fixtures/aimleap-build.ts';
import { sampleLines } from './aim/sample.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = resolve(repoRoot, '../shared/data/aim');

const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
    'search-ms': { type: 'string', default: '2000' },
    modes: { type: 'string', default: 'none,batch,dyndist,constdist' },
    out: { type: 'string' },
  },
});

const MODES: Record<string, (port: number) => string[]> = {
  none: () => ['-constdist', '8.0'],
  batch: (p) => ['-advisorsocket', String(p)],
  dyndist: (p) => ['-advisorsocket', String(p), '-dyndist'],
  constdist: (p) => ['-advisorsocket', String(p), '-constdist', '8.0'],
};

interface Run {
  problem: string;
  mode: string;
  solved: boolean;
  abstime?: number;
  wallMs: number;
  outcome: string;
}

/** Starts `arbor advisor` on a free port; resolves with the port once it listens. */
async function startAdvisor(preamble: string, searchMs: string): Promise<{ port: number; stop: () => Promise<void>; log: string[] }> {
  const p = startProcess({ program: process.execPath, args: [join(repoRoot, 'bin/arbor.js'), 'advisor', '--port', '0', '--preamble', preamble, '--search-ms', searchMs], cwd: repoRoot });
  const log: string[] = [];
  let buffered = '';
  const port = await new Promise<number>((resolvePort, reject) => {
    p.stderr.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const l of lines) {
        log.push(l);
        const m = /listening on [^:]+:(\d+)/.exec(l);
        if (m) resolvePort(Number(m[1]));
      }
    });
    void p.exited.then(() => reject(new Error(`arbor advisor exited before listening:\n${log.join('\n')}`)));
  });
  return {
    port,
    log,
    stop: async () => {
      p.signal('SIGTERM');
      await p.exited;
    },
  };
}

async function main(): Promise<void> {
  const modes = values.modes.split(',').map((m) => m.trim());
  for (const m of modes) if (!MODES[m]) throw new Error(`unknown mode ${m} (known: ${Object.keys(MODES).join(', ')})`);
  const preambleFile = join(dataDir, 'preamble.txt');
  const preamble = readFileSync(preambleFile, 'utf8');
  const all = readFileSync(join(dataDir, 'dev.txt'), 'utf8').split(/\r?\n/).filter((l) => l.startsWith('Theorem '));
  const lines = sampleLines(all, Number(values.sample), Number(values.seed));

  const t0 = Date.now();
  const build = await buildAimleap({ log: (l) => process.stderr.write(`${l}\n`) });
  process.stderr.write(`AIMLEAP ${build.commit.slice(0, 12)} built from ${build.source} → ${build.bin} (${Date.now() - t0} ms)\n`);

  const work = mkdtempSync(join(tmpdir(), 'arbor-aim-advisor-'));
  const advisor = modes.some((m) => m !== 'none') ? await startAdvisor(preambleFile, values['search-ms']) : undefined;
  const runs: Run[] = [];
  try {
    for (const [i, line] of lines.entries()) {
      const name = /^Theorem\s+(\S+?)\s*:/.exec(line)?.[1] ?? `problem${i}`;
      const file = join(work, name);
      writeFileSync(file, `${preamble.trimEnd()}\n${line}\nAdmitted.\n`);
      for (const mode of modes) {
        const args = ['-abslimit', '100', '-maxdepth', '10', ...(MODES[mode] as (p: number) => string[])(advisor?.port ?? 0), file];
        const start = Date.now();
        const r = await runProcess({ program: build.bin, args, timeoutMs: 120_000 });
        const result = /^RESULT: (.*)$/m.exec(r.stdout)?.[1] ?? (r.timedOut ? 'timed out (120 s)' : `no RESULT line (exit ${r.exitCode}): ${(r.stdout + r.stderr).trim().slice(-200)}`);
        const solved = result.startsWith('Successfully Proved');
        const abs = /abstract time (\d+)|Abs time: (\d+)/.exec(result);
        runs.push({ problem: name, mode, solved, wallMs: Date.now() - start, outcome: result, ...(abs ? { abstime: Number(abs[1] ?? abs[2]) } : {}) });
      }
      const done = runs.filter((r) => r.problem === name);
      process.stderr.write(`${i + 1}/${lines.length} ${name}: ${done.map((r) => `${r.mode} ${r.solved ? `✓${r.abstime}` : '✗'}`).join('  ')}\n`);
    }
  } finally {
    await advisor?.stop();
    rmSync(work, { recursive: true, force: true });
  }

  const rows = modes.map((mode) => {
    const rs = runs.filter((r) => r.mode === mode);
    const solved = rs.filter((r) => r.solved);
    const others = rs.filter((r) => !r.solved && !r.outcome.startsWith('Search for'));
    const meanAbs = solved.length ? solved.reduce((s, r) => s + (r.abstime ?? 0), 0) / solved.length : 0;
    const onlyHere = solved.filter((r) => !runs.some((o) => o.mode === 'none' && o.problem === r.problem && o.solved)).length;
    return { mode, solved: solved.length, of: rs.length, meanAbs, onlyHere, wallS: rs.reduce((s, r) => s + r.wallMs, 0) / 1000, errors: others.length };
  });
  const header = '| AIMLEAP run (-abslimit 100 -maxdepth 10) | solved | mean abstract time (solved) | solved that `none` did not | wall time (s) | runs without a RESULT |';
  const table = [header, '|---|---:|---:|---:|---:|---:|', ...rows.map((r) => `| ${r.mode} | ${r.solved}/${r.of} | ${r.meanAbs.toFixed(1)} | ${r.mode === 'none' ? '–' : r.onlyHere} | ${r.wallS.toFixed(1)} | ${r.errors} |`)].join('\n');
  process.stdout.write(`\nAIMLEAP ${build.commit.slice(0, 12)}, ${lines.length} AIM problems (dev.txt, --sample ${values.sample} --seed ${values.seed}), arbor advisor --search-ms ${values['search-ms']}\n\n${table}\n`);
  if (advisor) process.stdout.write(`\narbor advisor log (per connection):\n${advisor.log.filter((l) => /closed/.test(l)).slice(-5).join('\n')}\n…\n`);
  const outDir = join(repoRoot, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const out = values.out ?? join(outDir, `aim-advisor-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, `${JSON.stringify({ aimleap: build.commit, sample: lines.length, seed: Number(values.seed), searchMs: Number(values['search-ms']), rows, runs }, null, 2)}\n`);
  process.stderr.write(`results: ${out}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:aim-advisor: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
