import { z } from 'zod';
import { batchKinds, ERROR_OUTCOME } from './batch-job.ts';

/**
 * A batch report is JSON lines, appended as the batch runs so nothing finished is lost: a `batch` line when
 * a run starts (again on every resumed run), one `item` line per finished item, and a `summary` line when a
 * run ends (finished or cancelled). The last summary is the batch's; every kind uses this one format.
 */
export const batchHeaderSchema = z.object({
  type: z.literal('batch'),
  batch: z.string(),
  kind: z.enum(batchKinds),
  input: z.string(),
  items: z.number().int().nonnegative(),
  mode: z.enum(['local', 'queue']),
  started: z.string(),
  /** Items already in the report when this run started (a resumed run skips them). */
  resumed: z.number().int().nonnegative(),
  options: z.record(z.string(), z.unknown()),
});
export type BatchHeader = z.infer<typeof batchHeaderSchema>;

export const batchItemSchema = z.object({
  type: z.literal('item'),
  /** The item's id in the input (case id, theorem name, `line 7`, file path). */
  id: z.string(),
  /** The job id, derived from the item and the options: the same input gives the same id on every run. */
  job: z.string(),
  outcome: z.string(),
  evidence: z.unknown(),
  /** The job's own time on its worker. */
  ms: z.number().nonnegative(),
  /** The worker that ran it (`input` for a line rejected before any job ran). */
  worker: z.string(),
  /** How many times a worker started the job (a worker that died mid-job makes it more than one). */
  attempts: z.number().int().nonnegative(),
  finished: z.string(),
  /** Found finished in the queue by a resumed run (not run again). */
  resumed: z.boolean().optional(),
});
export type BatchItemLine = z.infer<typeof batchItemSchema>;

export const batchTotalsSchema = z.object({
  items: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  byOutcome: z.record(z.string(), z.number()),
  byWorker: z.record(z.string(), z.number()),
  /** Sum and median of the items' own times. */
  itemMs: z.object({ sum: z.number(), median: z.number() }),
});
export type BatchTotals = z.infer<typeof batchTotalsSchema>;

export const batchSummarySchema = z.object({
  type: z.literal('summary'),
  batch: z.string(),
  kind: z.enum(batchKinds),
  cancelled: z.boolean(),
  totals: batchTotalsSchema,
  run: z.object({
    /** Items this run finished (not counting those found finished). */
    ran: z.number().int().nonnegative(),
    wallMs: z.number().nonnegative(),
    itemsPerMinute: z.number().nonnegative(),
    workers: z.number().int().nonnegative(),
    /** CPU time of the batch process itself (dispatch, collection, report), in ms. */
    collectorCpuMs: z.number().nonnegative(),
  }),
  finished: z.string(),
});
export type BatchSummary = z.infer<typeof batchSummarySchema>;

export type BatchReportLine = BatchHeader | BatchItemLine | BatchSummary;

/**
 * Reads a report back: the lines of its batch. A line cut short by a crash, or any line that is not
 * one of ours, is skipped (the items it would have held run again).
 */
export function readBatchReport(text: string): { headers: BatchHeader[]; items: BatchItemLine[]; summaries: BatchSummary[] } {
  const headers: BatchHeader[] = [];
  const items: BatchItemLine[] = [];
  const summaries: BatchSummary[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    const type = (json as { type?: unknown } | null)?.type;
    const parsed = type === 'batch' ? batchHeaderSchema.safeParse(json) : type === 'item' ? batchItemSchema.safeParse(json) : type === 'summary' ? batchSummarySchema.safeParse(json) : undefined;
    if (!parsed?.success) continue;
    const value = parsed.data;
    if (value.type === 'batch') headers.push(value);
    else if (value.type === 'item') items.push(value);
    else summaries.push(value);
  }
  return { headers, items, summaries };
}

/** Totals over the items of a batch; an item reported twice (a retried write) counts once, the last line wins. */
export function batchTotals(itemCount: number, lines: readonly BatchItemLine[]): BatchTotals {
  const byJob = new Map<string, BatchItemLine>();
  for (const l of lines) byJob.set(l.job, l);
  const done = [...byJob.values()];
  const count = (key: (l: BatchItemLine) => string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const l of done) out[key(l)] = (out[key(l)] ?? 0) + 1;
    return out;
  };
  const ms = done.map((l) => l.ms).sort((a, b) => a - b);
  return {
    items: itemCount,
    done: done.length,
    errors: done.filter((l) => l.outcome === ERROR_OUTCOME).length,
    byOutcome: count((l) => l.outcome),
    byWorker: count((l) => l.worker),
    itemMs: { sum: Math.round(ms.reduce((a, b) => a + b, 0)), median: Math.round(ms[Math.floor(ms.length / 2)] ?? 0) },
  };
}

/** Progress as the terminal and `--json` show it. */
export interface BatchProgress {
  type: 'progress';
  done: number;
  total: number;
  errors: number;
  /** Items this run finished per minute (resumed items excluded). */
  perMinute: number;
  /** Seconds left at that rate, `null` before the first item of this run. */
  etaSeconds: number | null;
  elapsedSeconds: number;
}

/** `12/40 done · 1 error · 23.5/min · 1m05s left · proved 10, unproved 1`. */
export function formatProgress(p: BatchProgress, byOutcome: Record<string, number>): string {
  const outcomes = Object.entries(byOutcome).filter(([k]) => k !== ERROR_OUTCOME).map(([k, v]) => `${k} ${v}`).join(', ');
  return [
    `${p.done}/${p.total} done`,
    `${p.errors} error${p.errors === 1 ? '' : 's'}`,
    `${p.perMinute.toFixed(1)}/min`,
    p.etaSeconds === null ? 'time left: …' : `${formatDuration(p.etaSeconds)} left`,
    ...(outcomes ? [outcomes] : []),
  ].join(' · ');
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
