import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BatchItemLine, BatchReportLine } from '../../shared/batch/batch-report.ts';
import { readBatchReport } from '../../shared/batch/batch-report.ts';

/** The report belongs to another batch (other input or options): never overwritten without --fresh. */
export class ReportConflict extends Error {}

/**
 * The report file: JSON lines appended one at a time, each with one write, so a crash loses at most the
 * line being written (and a reader skips a line cut short). Opening an existing report of the same batch
 * resumes it: its finished items are not run again.
 */
export class ReportFile {
  private constructor(readonly path: string, readonly previous: BatchItemLine[]) {}

  static open(path: string, batch: string, fresh: boolean): ReportFile {
    if (fresh || !existsSync(path)) {
      writeFileSync(path, '');
      return new ReportFile(path, []);
    }
    const text = readFileSync(path, 'utf8');
    const { headers, items } = readBatchReport(text);
    const last = headers[headers.length - 1];
    if (!last) {
      if (text.trim() === '') return new ReportFile(path, []);
      throw new ReportConflict(`${path} is not a batch report: choose another --report (or --fresh to overwrite it)`);
    }
    if (last.batch !== batch) throw new ReportConflict(`${path} is the report of another batch (${last.kind} ${last.input}, batch ${last.batch}): choose another --report, or --fresh to overwrite it`);
    // A line cut short by a crash would glue onto the next line: end the file with a newline first.
    if (!text.endsWith('\n') && text !== '') appendFileSync(path, '\n');
    return new ReportFile(path, items.filter((i) => i.outcome !== undefined));
  }

  append(line: BatchReportLine): void {
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}
