import { readFile } from 'node:fs/promises';
import { availableParallelism, hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BatchKind } from '../../shared/batch/batch-job.ts';
import { batchKinds, ERROR_OUTCOME } from '../../shared/batch/batch-job.ts';
import type { BatchHeader, BatchItemLine, BatchSummary } from '../../shared/batch/batch-report.ts';
import { batchTotals, formatDuration } from '../../shared/batch/batch-report.ts';
import type { TierId } from '../../shared/fidelity/fidelity-types.ts';
import { tierIds } from '../../shared/fidelity/fidelity-types.ts';
import type { ManagedProcess } from '../process/process-manager.ts';
import { startProcess } from '../process/process-manager.ts';
import type { BatchInput, BatchInputOptions } from './batch-input.ts';
import { BatchInputError, batchIdOf, DEFAULT_TIMEOUT_SECONDS, readBatchInput } from './batch-input.ts';
import type { Dispatcher, FinishedJob } from './dispatcher.ts';
import { LocalPool } from './local-pool.ts';
import type { TrustedProject } from './worker-provers.ts';
import { ProgressView } from './progress-view.ts';
import { QueueDispatcher } from './queue-dispatcher.ts';
import { checkRedis } from './redis-check.ts';
import { redisConnection, redisLabel } from './redis-queues.ts';
import { ReportConflict, ReportFile } from './report-file.ts';

export const batchUsage = `usage: arbor batch KIND INPUT [options]
Runs one job per item of INPUT and writes a report (JSON lines: one line per item as it finishes, then a
summary). Re-running the same batch with the same report resumes it: finished items are not run again.

kinds:
  fidelity  a case file (TSV or JSON lines: id, canonical, candidate[, context, truth])
  aim       an AIM problem file with its preamble, or theorem lines with --preamble FILE
  hammer    Coq statements, one per line, or TSV with columns id, statement[, context]
  check     a folder of proof documents (*.arbor): each checked to the end, its script by coqc alone

options:
  --report FILE        the report (default: arbor-batch-KIND-ID.jsonl in this folder)
  --workers N          worker processes on this machine (default: one per core); with --queue,
                       workers started here besides remote ones (default 0)
  --queue redis://HOST:PORT
                       put the jobs on BullMQ in that Redis; 'arbor worker --queue …' runs them anywhere
  --json               progress and report lines as JSON lines on stdout
  --timeout SECONDS    fidelity: per tactic (${DEFAULT_TIMEOUT_SECONDS.fidelity}); aim: per problem (${DEFAULT_TIMEOUT_SECONDS.aim}); hammer: HAMMER's budget (${DEFAULT_TIMEOUT_SECONDS.hammer});
                       check: per command (${DEFAULT_TIMEOUT_SECONDS.check})
  --attempts N         times a job may be started (its worker died, or could not run it) before the
                       item is an error (default 3)
  --fresh              run every item again (overwrites the report; forgets the queue's finished jobs)
  --keep-days N        queue: finished jobs stay in Redis this long, for re-runs (default 7)
  --workspace DIR      local workers use DIR's Coq project (load paths), as trusted in the workbench (never
                       asked here); queue workers choose their own with 'arbor worker --workspace'
  aim:       --preamble FILE   --no-eprover (Arbor's own completion only)
  fidelity:  --tiers ${tierIds.join(',')}   --classical   --backend coq|lean   --context FILE`;

const ARBOR_BIN = fileURLToPath(new URL('../../bin/arbor.js', import.meta.url));

interface Io { out: (s: string) => void; err: (s: string) => void }
const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** `arbor batch …`: 0 when the batch ran to the end (whatever the outcomes), 130 when cancelled, 2 on bad usage, 1 when it could not run. */
export async function runBatchCommand(argv: string[], io: Io = defaultIo, trustedProject?: TrustedProject): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        report: { type: 'string' }, workers: { type: 'string' }, queue: { type: 'string' }, json: { type: 'boolean', default: false },
        timeout: { type: 'string' }, attempts: { type: 'string', default: '3' }, fresh: { type: 'boolean', default: false },
        'keep-days': { type: 'string', default: '7' }, preamble: { type: 'string' }, 'no-eprover': { type: 'boolean', default: false },
        tiers: { type: 'string' }, classical: { type: 'boolean', default: false }, backend: { type: 'string', default: 'coq' }, context: { type: 'string' }, workspace: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (e) {
    io.err(`arbor batch: ${(e as Error).message}\n${batchUsage}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) { io.out(`${batchUsage}\n`); return 0; }
  const usage = (message: string): number => { io.err(`arbor batch: ${message}\n`); return 2; };
  const [kindArg, input, ...extra] = positionals;
  if (!kindArg || !input || extra.length > 0) { io.err(`${batchUsage}\n`); return 2; }
  if (!(batchKinds as readonly string[]).includes(kindArg)) return usage(`unknown kind '${kindArg}' (${batchKinds.join(', ')})`);
  const kind = kindArg as BatchKind;
  const positive = (text: string | undefined, what: string, integer = false): number | undefined | Error => {
    if (text === undefined) return undefined;
    const n = Number(text);
    return Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n)) ? n : new Error(`${what} must be a positive ${integer ? 'integer' : 'number'}`);
  };
  // Said now, not by each worker: a workspace that is not trusted (or has no project) is a usage error.
  let workspace: string | undefined;
  if (values.workspace !== undefined) {
    if (values.queue !== undefined) return usage("--workspace is for local workers; start queue workers with 'arbor worker --workspace DIR'");
    if (trustedProject === undefined) return usage('--workspace is not available here');
    try {
      await trustedProject(values.workspace);
    } catch (err) {
      return usage((err as Error).message);
    }
    workspace = resolve(values.workspace);
  }
  const timeout = positive(values.timeout, '--timeout');
  const workersArg = values.workers === '0' && values.queue ? 0 : positive(values.workers, '--workers', true);
  const attempts = positive(values.attempts, '--attempts', true);
  const keepDays = positive(values['keep-days'], '--keep-days');
  for (const v of [timeout, workersArg, attempts, keepDays]) if (v instanceof Error) return usage(v.message);
  if (values.backend !== 'coq' && values.backend !== 'lean') return usage('--backend must be coq or lean');
  let tiers: TierId[] | undefined;
  if (values.tiers) {
    const list = values.tiers.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
    const bad = list.find((t) => !(tierIds as readonly string[]).includes(t));
    if (bad) return usage(`unknown tier '${bad}' (tiers: ${tierIds.join(', ')})`);
    tiers = list as TierId[];
  }
  if (values.queue !== undefined) {
    try {
      redisConnection(values.queue);
    } catch (err) {
      return usage((err as Error).message);
    }
  }

  let batchInput: BatchInput;
  try {
    const options: BatchInputOptions = {
      ...(typeof timeout === 'number' ? { timeoutSeconds: timeout } : {}),
      ...(values.preamble !== undefined ? { preamble: await readFile(values.preamble, 'utf8') } : {}),
      ...(values.context !== undefined ? { context: await readFile(values.context, 'utf8') } : {}),
      useE: !values['no-eprover'], classical: values.classical, fidelityBackend: values.backend, ...(tiers ? { tiers } : {}),
    };
    batchInput = await readBatchInput(kind, input, options);
  } catch (err) {
    if (err instanceof BatchInputError || (err as NodeJS.ErrnoException).code !== undefined) return usage((err as Error).message);
    throw err;
  }
  const { items, bad } = batchInput;
  const total = items.length + bad.length;
  if (total === 0) return usage(`no items in ${input}`);
  const batch = batchIdOf(kind, [...items.map((i) => i.jobId), ...bad.map((b) => b.jobId)]);
  const reportPath = values.report ?? `arbor-batch-${kind}-${batch}.jsonl`;
  let report: ReportFile;
  try {
    report = ReportFile.open(reportPath, batch, values.fresh);
  } catch (err) {
    if (err instanceof ReportConflict) return usage(err.message);
    throw err;
  }

  const queueUrl = values.queue;
  let redisNotices: string[] = [];
  if (queueUrl !== undefined) {
    const check = await checkRedis(queueUrl);
    if (check.error) { io.err(`arbor batch: cannot reach Redis at ${redisLabel(queueUrl)}: ${check.error}\n`); return 1; }
    redisNotices = check.notices;
  }
  const ourJobs = new Set([...items.map((i) => i.jobId), ...bad.map((b) => b.jobId)]);
  const lines: BatchItemLine[] = report.previous.filter((l) => ourJobs.has(l.job));
  const recorded = new Set(lines.map((l) => l.job));
  const view = new ProgressView(total, values.json);
  const header: BatchHeader = {
    type: 'batch', batch, kind, input, items: total, mode: queueUrl ? 'queue' : 'local', started: new Date().toISOString(), resumed: recorded.size,
    options: { timeoutSeconds: typeof timeout === 'number' ? timeout : DEFAULT_TIMEOUT_SECONDS[kind], attempts, ...(tiers ? { tiers } : {}), ...(kind === 'aim' ? { eprover: !values['no-eprover'] } : {}), ...(queueUrl ? { queue: redisLabel(queueUrl) } : {}) },
  };
  report.append(header);
  view.line(header);
  for (const l of lines) view.count(l);
  for (const n of redisNotices) view.notice(n);

  const record = (l: BatchItemLine, ran: boolean): void => {
    if (recorded.has(l.job)) return;
    recorded.add(l.job);
    lines.push(l);
    report.append(l);
    view.item(l, ran);
  };
  const now = (): string => new Date().toISOString();
  for (const b of bad) record({ type: 'item', id: b.id, job: b.jobId, outcome: ERROR_OUTCOME, evidence: { message: b.message }, ms: 0, worker: 'input', attempts: 0, finished: now() }, false);
  const pending = items.filter((i) => !recorded.has(i.jobId)).map((i) => ({ id: i.id, jobId: i.jobId, job: i.job }));
  const idOf = new Map(items.map((i) => [i.jobId, i.id]));

  const localWorkers = typeof workersArg === 'number' ? workersArg : queueUrl ? 0 : availableParallelism();
  const dispatcher: Dispatcher = queueUrl
    ? new QueueDispatcher({ url: queueUrl, attempts: attempts as number, keepSeconds: Math.round((keepDays as number) * 86_400), fresh: values.fresh })
    : new LocalPool({ workers: localWorkers, attempts: attempts as number, ...(workspace !== undefined ? { workspace } : {}) });
  if (!values.json) {
    io.err(`batch ${kind} ${input}: ${total} items${bad.length ? ` (${bad.length} bad)` : ''}, ${recorded.size} already done; ${queueUrl ? `queue ${redisLabel(queueUrl)}${localWorkers ? ` with ${localWorkers} local worker(s)` : ''}` : `local pool of ${Math.min(localWorkers, pending.length)} worker(s)`}; report ${reportPath}\n`);
  }
  const helpers = queueUrl && localWorkers > 0 && pending.length > 0 ? await startQueueWorkers(queueUrl, localWorkers, (t) => view.notice(t)) : [];

  let cancelled = false;
  const onSignal = (): void => {
    if (cancelled) process.exit(130);
    cancelled = true;
    view.notice('cancelling: removing the batch\'s pending jobs (Ctrl+C again to leave at once)');
    void dispatcher.cancel().then(({ removed, running }) => view.notice(`cancelled: ${removed} pending job(s) removed${queueUrl ? `, ${running} running job(s) finish on their workers and count for a re-run` : `, ${running} running job(s) stopped`}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const runStart = Date.now();
  const cpuStart = process.cpuUsage();
  let ran = 0;
  let failure: string | undefined;
  try {
    await dispatcher.run(pending, {
      finished: (f: FinishedJob) => {
        if (!f.resumed) ran++;
        record({
          type: 'item', id: idOf.get(f.jobId) ?? f.jobId, job: f.jobId, outcome: f.outcome.outcome, evidence: f.outcome.evidence, ms: f.outcome.ms,
          worker: f.outcome.worker, attempts: f.attempts, finished: now(), ...(f.resumed ? { resumed: true } : {}),
        }, !f.resumed);
      },
      progress: (jobId, p) => { if (p.phase === 'started') view.started(idOf.get(jobId) ?? jobId, jobId, p.worker); },
      notice: (text) => view.notice(text),
    });
  } catch (err) {
    failure = (err as Error).message;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const wallMs = Date.now() - runStart;
  const cpu = process.cpuUsage(cpuStart);
  const summary: BatchSummary = {
    type: 'summary', batch, kind, cancelled: cancelled || failure !== undefined, totals: batchTotals(total, lines),
    run: { ran, wallMs, itemsPerMinute: wallMs > 0 ? (ran * 60_000) / wallMs : 0, workers: dispatcher.workerCount(), collectorCpuMs: Math.round((cpu.user + cpu.system) / 1000) },
    finished: now(),
  };
  report.append(summary);
  view.finish();
  view.line(summary);
  await dispatcher.close();
  await stopQueueWorkers(helpers);
  if (failure !== undefined) { io.err(`arbor batch: ${failure}\n`); return 1; }
  if (!values.json) io.out(formatSummary(summary, reportPath));
  return cancelled ? 130 : 0;
}

/**
 * `--queue … --workers N`: queue workers on this machine too, through the process manager. Resolves once each
 * has said which provers it serves (or has exited), so the batch's first look at the queues sees them.
 */
async function startQueueWorkers(url: string, n: number, notice: (text: string) => void): Promise<ManagedProcess[]> {
  const workers = Array.from({ length: n }, (_, i) => {
    const name = `${hostname()}-local-${i + 1}`;
    const p = startProcess({ program: process.execPath, args: [ARBOR_BIN, 'worker', '--queue', url, '--name', name], sandbox: false /* Arbor itself; its provers are sandboxed */ });
    p.stdout.resume();
    let seen = '';
    let started = false;
    const ready = new Promise<void>((resolve) => {
      p.stderr.setEncoding('utf8');
      p.stderr.on('data', (chunk: string) => {
        if (started) return;
        seen = (seen + chunk).slice(-8192);
        if (seen.includes(`worker ${name}: provers `)) {
          started = true;
          resolve();
        }
      });
      void p.exited.then(({ code, signal }) => {
        if (started) return;
        notice(`local queue worker ${name} exited (${signal ?? `code ${code}`}): ${seen.trim().split('\n').slice(-2).join(' / ')}`);
        resolve();
      });
    });
    return { p, ready };
  });
  await Promise.all(workers.map((w) => w.ready));
  return workers.map((w) => w.p);
}

async function stopQueueWorkers(workers: ManagedProcess[]): Promise<void> {
  await Promise.all(workers.map(async (w) => {
    w.signal('SIGTERM');
    const timer = setTimeout(() => w.kill(), 10_000);
    await w.exited;
    clearTimeout(timer);
  }));
}

export function formatSummary(s: BatchSummary, reportPath: string): string {
  const t = s.totals;
  const lines = [
    `${s.cancelled ? 'cancelled' : 'done'}: ${t.done}/${t.items} items, ${t.errors} error${t.errors === 1 ? '' : 's'}; this run ${s.run.ran} in ${formatDuration(s.run.wallMs / 1000)} (${s.run.itemsPerMinute.toFixed(1)}/min, ${s.run.workers} worker${s.run.workers === 1 ? '' : 's'})`,
    `outcomes: ${Object.entries(t.byOutcome).map(([k, v]) => `${k} ${v}`).join(', ') || '-'}`,
    `workers:  ${Object.entries(t.byWorker).map(([k, v]) => `${k} ${v}`).join(', ') || '-'}`,
    `report:   ${reportPath}`,
  ];
  return `${lines.join('\n')}\n`;
}
