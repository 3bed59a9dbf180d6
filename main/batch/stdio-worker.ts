import type { Readable, Writable } from 'node:stream';
import { batchJobSchema, ERROR_OUTCOME } from '../../shared/batch/batch-job.ts';
import { LineSplitter } from '../../shared/protocol/line-splitter.ts';
import { JobRunner } from './job-runner.ts';
import type { PoolReply } from './pool-messages.ts';
import { poolRequestSchema } from './pool-messages.ts';
import type { WorkerProvers } from './worker-provers.ts';

/** Jobs (with a document or a preamble inside) are bigger than protocol lines: 16 MiB at most. */
const MAX_LINE = 16 << 20;

/**
 * A local pool's worker process: reads jobs from stdin one at a time, runs them with the shared job code,
 * writes JSON lines on stdout (nothing else may write there). Ends at end of input.
 */
export async function runStdioWorker(name: string, provers: WorkerProvers, input: Readable, output: Writable): Promise<void> {
  const runner = new JobRunner(name, provers);
  const send = (reply: PoolReply): void => { output.write(`${JSON.stringify(reply)}\n`); };
  send({ type: 'ready', worker: name, backends: provers.backends, eprover: provers.eprover });
  const splitter = new LineSplitter(MAX_LINE);
  input.setEncoding('utf8');
  try {
    for await (const chunk of input) {
      for (const line of splitter.push(chunk as string)) {
        if (line.text.trim() === '') continue;
        await serve(line.text, line.overlongLength, runner, name, send);
      }
    }
  } finally {
    await runner.dispose();
  }
}

async function serve(text: string, overlong: number | undefined, runner: JobRunner, name: string, send: (r: PoolReply) => void): Promise<void> {
  let request;
  try {
    request = poolRequestSchema.parse(JSON.parse(text));
  } catch {
    process.stderr.write(`worker ${name}: ignored a line that is not a job${overlong ? ` (${overlong} characters)` : ''}\n`);
    return;
  }
  const job = batchJobSchema.safeParse(request.data);
  if (!job.success) {
    send({ type: 'result', job: request.job, outcome: { outcome: ERROR_OUTCOME, evidence: { message: `bad job data: ${job.error.issues[0]?.message ?? 'invalid'}` }, ms: 0, worker: name } });
    return;
  }
  try {
    const outcome = await runner.run(job.data, (data) => send({ type: 'progress', job: request.job, data }));
    send({ type: 'result', job: request.job, outcome });
  } catch (err) {
    send({ type: 'failed', job: request.job, message: err instanceof Error ? err.message : String(err) });
  }
}
