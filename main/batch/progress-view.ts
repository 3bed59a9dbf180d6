import type { BatchItemLine, BatchProgress, BatchReportLine } from '../../shared/batch/batch-report.ts';
import { formatProgress } from '../../shared/batch/batch-report.ts';
import { ERROR_OUTCOME } from '../../shared/batch/batch-job.ts';

/** What the batch shows while it runs: a progress line on the terminal, or JSON lines for tools (`--json`). */
export class ProgressView {
  private done = 0;
  private errors = 0;
  private ran = 0;
  private readonly byOutcome: Record<string, number> = {};
  private readonly since = Date.now();
  private timer?: NodeJS.Timeout;
  private readonly tty: boolean;

  constructor(private readonly total: number, private readonly json: boolean, private readonly out: NodeJS.WriteStream = process.stdout, private readonly err: NodeJS.WriteStream = process.stderr) {
    this.tty = !json && Boolean(err.isTTY);
    // The time left changes between items too.
    if (this.tty) this.timer = setInterval(() => this.render(), 1000);
  }

  /** A report line (the JSON stream carries every one). */
  line(l: BatchReportLine): void {
    if (this.json) this.out.write(`${JSON.stringify(l)}\n`);
  }

  /** An item an earlier run finished (already in the report): counted, not shown again. */
  count(l: BatchItemLine): void {
    this.done++;
    if (l.outcome === ERROR_OUTCOME) this.errors++;
    this.byOutcome[l.outcome] = (this.byOutcome[l.outcome] ?? 0) + 1;
  }

  /** An item finished: `ran` when this run ran it (not found finished by an earlier one). */
  item(l: BatchItemLine, ran: boolean): void {
    this.count(l);
    if (ran) this.ran++;
    this.line(l);
    if (this.json) this.out.write(`${JSON.stringify(this.progress())}\n`);
    else if (!this.tty) this.err.write(`[${this.done}/${this.total}] ${l.id}: ${l.outcome} (${Math.round(l.ms)} ms, ${l.worker})\n`);
    this.render();
  }

  started(id: string, jobId: string, worker: string): void {
    if (this.json) this.out.write(`${JSON.stringify({ type: 'started', id, job: jobId, worker })}\n`);
  }

  notice(text: string): void {
    if (this.json) this.out.write(`${JSON.stringify({ type: 'notice', text })}\n`);
    else {
      this.clear();
      this.err.write(`${text}\n`);
      this.render();
    }
  }

  progress(): BatchProgress {
    const elapsed = (Date.now() - this.since) / 1000;
    const perMinute = elapsed > 0 ? (this.ran * 60) / elapsed : 0;
    const left = this.total - this.done;
    return { type: 'progress', done: this.done, total: this.total, errors: this.errors, perMinute, etaSeconds: left === 0 ? 0 : this.ran > 0 && perMinute > 0 ? (left * 60) / perMinute : null, elapsedSeconds: elapsed };
  }

  finish(): void {
    if (this.timer) clearInterval(this.timer);
    this.render();
    if (this.tty) this.err.write('\n');
  }

  private render(): void {
    if (!this.tty) return;
    this.err.write(`\r\x1b[2K${formatProgress(this.progress(), this.byOutcome).slice(0, (this.err.columns ?? 120) - 1)}`);
  }

  private clear(): void {
    if (this.tty) this.err.write('\r\x1b[2K');
  }
}
