import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCases } from '../../shared/fidelity/fidelity-cases.ts';
import type { FidelityCase } from '../../shared/fidelity/fidelity-cases.ts';
import { summarise } from '../../shared/fidelity/fidelity-metrics.ts';
import { tierIds } from '../../shared/fidelity/fidelity-types.ts';
import type { FidelityInput, FidelityReport, TierId } from '../../shared/fidelity/fidelity-types.ts';
import { checkFidelity, FidelityInputRefused } from './check-fidelity.ts';
import { createProgressBar } from './progress-bar.ts';
import { confinedPath, PathOutsideFolder } from './confined-path.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';

function refusedReport(input: FidelityInput, reason: string): FidelityReport {
  return {
    ...(input.id !== undefined ? { id: input.id } : {}), verdict: 'unknown', tier: null, reason, backend: input.backend ?? 'coq',
    classical: input.classical ?? false, normalised: { s0: { canonical: input.canonical, candidate: input.candidate } }, evidence: null, trace: [], ms: 0,
  };
}

export const fidelityUsage = `usage: arbor fidelity --canonical "…" --candidate "…" [--context FILE]
       arbor fidelity --cases FILE.tsv|FILE.jsonl
options: --backend coq|lean   --tiers ${tierIds.join(',')}   --timeout SECONDS (per tactic, default 4)
         --classical   --report FILE.json   --json (print the report JSON on stdout)
         --workspace DIR (use DIR's Coq project load paths, as trusted in the workbench; never asked here)`;

interface Io { out: (s: string) => void; err: (s: string) => void }
const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** `arbor fidelity …`: exit 0 when the check ran (whatever the verdicts), 2 on a usage or input error. */
export async function runFidelityCommand(argv: string[], io: Io = defaultIo, trustedProject?: (dir: string) => Promise<ProjectArgs | undefined>): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        canonical: { type: 'string' }, candidate: { type: 'string' }, context: { type: 'string' }, cases: { type: 'string' },
        backend: { type: 'string', default: 'coq' }, tiers: { type: 'string' }, timeout: { type: 'string' },
        classical: { type: 'boolean', default: false }, report: { type: 'string' }, json: { type: 'boolean', default: false },
        workspace: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    io.err(`${(e as Error).message}\n${fidelityUsage}\n`);
    return 2;
  }
  if (values.help) { io.out(`${fidelityUsage}\n`); return 0; }
  const backend = values.backend;
  if (backend !== 'coq' && backend !== 'lean') { io.err(`--backend must be coq or lean\n`); return 2; }
  let tiers: TierId[] | undefined;
  if (values.tiers) {
    const list = values.tiers.split(',').map((t) => t.trim()).filter(Boolean);
    const bad = list.find((t) => !(tierIds as readonly string[]).includes(t));
    if (bad) { io.err(`unknown tier '${bad}' (tiers: ${tierIds.join(', ')})\n`); return 2; }
    tiers = list as TierId[];
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const s = Number(values.timeout);
    if (!Number.isFinite(s) || s <= 0) { io.err('--timeout must be a positive number of seconds\n'); return 2; }
    timeoutMs = Math.round(s * 1000);
  }
  let project: ProjectArgs | undefined;
  if (values.workspace !== undefined) {
    try {
      if (trustedProject === undefined) throw new Error('--workspace is not available here');
      project = await trustedProject(values.workspace);
    } catch (err) {
      io.err(`arbor fidelity: ${(err as Error).message}\n`);
      return 2;
    }
  }
  const common = { backend, classical: values.classical, ...(tiers ? { tiers } : {}), ...(timeoutMs ? { timeoutMs } : {}) } as const;

  try {
    if (values.cases) {
      if (values.canonical || values.candidate) { io.err('--cases excludes --canonical/--candidate\n'); return 2; }
      const path = resolve(values.cases);
      const cases = parseCases(await readFile(path, 'utf8'));
      const sharedContext = values.context ? await readFile(values.context, 'utf8') : undefined;
      const bar = createProgressBar(cases.length);
      const reports: FidelityReport[] = [];
      for (const c of cases) {
        let context: string | undefined;
        try {
          context = await resolveContext(c, dirname(path)) ?? sharedContext;
        } catch (e) {
          if (!(e instanceof PathOutsideFolder)) throw e;
          reports.push(refusedReport({ id: c.id, canonical: c.canonical, candidate: c.candidate, ...common }, `context: ${e.message}`));
          bar.tick(`${c.id}: refused`);
          continue;
        }
        const input: FidelityInput = { id: c.id, canonical: c.canonical, candidate: c.candidate, ...(context ? { context } : {}), ...common };
        reports.push(await checkFidelity(input, undefined, project).catch((e: unknown) => {
          // A refused case (text that could escape its sentence) is reported on its own line; the batch goes on.
          if (!(e instanceof FidelityInputRefused)) throw e;
          return refusedReport(input, e.message);
        }));
        bar.tick(`${c.id}: ${reports[reports.length - 1]?.verdict}`);
      }
      bar.done();
      const totals = summarise(reports, cases.some((c) => c.truth) ? cases.map((c) => c.truth) : undefined);
      const doc = { cases: reports, totals };
      if (values.report) await writeFile(values.report, `${JSON.stringify(doc, null, 2)}\n`);
      if (values.json) io.out(`${JSON.stringify(doc)}\n`);
      else {
        for (const r of reports) io.out(`${r.id}\t${r.verdict}\t${r.tier ?? '-'}\t${Math.round(r.ms)} ms\t${r.reason}\n`);
        io.out(formatTotals(totals));
      }
      return 0;
    }
    if (!values.canonical || !values.candidate) { io.err(`${fidelityUsage}\n`); return 2; }
    const context = values.context ? await readFile(values.context, 'utf8') : undefined;
    const report = await checkFidelity({ canonical: values.canonical, candidate: values.candidate, ...(context ? { context } : {}), ...common }, undefined, project);
    if (values.report) await writeFile(values.report, `${JSON.stringify(report, null, 2)}\n`);
    io.out(values.json ? `${JSON.stringify(report)}\n` : formatReport(report));
    return 0;
  } catch (e) {
    io.err(`fidelity: ${(e as Error).message}\n`);
    return 2;
  }
}

/**
 * A `context` cell names a `.v` file (relative to the case file, inside its folder) or holds the
 * vernacular itself. Throws PathOutsideFolder for a path that leads out of the folder.
 */
export async function resolveContext(c: FidelityCase, base: string): Promise<string | undefined> {
  if (!c.context) return undefined;
  if (!/\.v$/u.test(c.context)) return c.context;
  const file = await confinedPath(base, c.context);
  return file === undefined ? c.context : readFile(file, 'utf8');
}

export function formatReport(r: FidelityReport): string {
  const lines = [`verdict: ${r.verdict}${r.tier ? ` (tier ${r.tier})` : ''}`, `reason:  ${r.reason}`,
    `S0:      ${r.normalised.s0.canonical}  |  ${r.normalised.s0.candidate}`];
  if (r.normalised.s1) lines.push(`S1:      ${r.normalised.s1.canonical}  |  ${r.normalised.s1.candidate}`);
  const ev = r.evidence;
  if (ev?.kind === 'proof') for (const d of ev.directions) lines.push(`proof ${d.direction}: ${d.script}`);
  if (ev?.kind === 'counterexample') lines.push(`counterexample: ${ev.summary}`);
  if (ev?.kind === 'unproved' && ev.failed.length > 0) lines.push(`not proved: ${ev.failed.join(', ')}`);
  if (ev?.kind === 'prover-error') lines.push(`prover: ${ev.message}`);
  for (const which of ['canonical', 'candidate'] as const) {
    const m = r.statements?.[which];
    if (!m) continue;
    lines.push(`MEANING: the ${which} statement does not mean what its text says; as Coq elaborated it in the context: ${m.elaborated}`);
    lines.push(`         in a clean environment: ${m.clean ?? '(does not elaborate)'}`);
    for (const d of m.differences) lines.push(`         • ${d}`);
  }
  lines.push(`time:    ${Math.round(r.ms)} ms`);
  return `${lines.join('\n')}\n`;
}

function formatTotals(t: ReturnType<typeof summarise>): string {
  const pct = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)} %`);
  const lines = [`cases: ${t.cases}  ${Object.entries(t.byVerdict).map(([k, v]) => `${k}=${v}`).join(' ')}  time/case: mean ${Math.round(t.msMean)} ms, median ${Math.round(t.msMedian)} ms`];
  if (t.accuracy) {
    lines.push(`accuracy: ${pct(t.accuracy.overall)}  precision(equivalent): ${pct(t.accuracy.precisionEquivalent)}  recall(equivalent): ${pct(t.accuracy.recallEquivalent)}  recall(not_equivalent): ${pct(t.accuracy.recallNotEquivalent)}`);
    for (const [k, v] of Object.entries(t.accuracy.perTruth)) lines.push(`  truth ${k}: ${v.correct}/${v.cases} (${pct(v.accuracy)})`);
    if (t.accuracy.wrong.length > 0) lines.push(`  wrong: ${t.accuracy.wrong.join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}
