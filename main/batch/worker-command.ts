import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { BatchBackend } from '../../shared/batch/batch-job.ts';
import { batchBackends } from '../../shared/batch/batch-job.ts';
import { startQueueWorker } from './queue-worker.ts';
import { queueName, redisConnection, redisLabel } from './redis-queues.ts';
import { runStdioWorker } from './stdio-worker.ts';
import { detectWorkerProvers, type TrustedProject, type WorkerProvers } from './worker-provers.ts';

export const workerUsage = `usage: arbor worker --queue redis://HOST:PORT [options]
Pulls batch jobs from BullMQ on that Redis and runs them with this machine's provers, until stopped
(SIGINT/SIGTERM: running jobs finish first; a second signal stops at once and BullMQ hands them to
another worker). It listens only on the queues of the provers it has.

options:
  --name NAME          how reports name this worker (default: HOST-PID)
  --concurrency N      jobs at once, per prover queue (default 1)
  --provers LIST       serve only these: ${batchBackends.join(',')} (default: all that are installed)
  --lock-seconds N     a job's lock; a dead worker's job runs again elsewhere after about twice this (default 30)
  --max-per-minute N   jobs a minute at most on each queue, over all workers (BullMQ's rate limiter)
  --stdio              serve a local pool on stdin/stdout instead (what 'arbor batch' starts)
  --workspace DIR      use DIR's Coq project (load paths), as trusted in the workbench; never asked here`;

/** `arbor worker …`: runs until stopped; 0 after a clean stop, 2 on bad usage, 1 when it cannot start. */
export async function runWorkerCommand(argv: string[], trustedProject?: TrustedProject): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        queue: { type: 'string' }, stdio: { type: 'boolean', default: false }, name: { type: 'string' }, concurrency: { type: 'string', default: '1' },
        provers: { type: 'string' }, workspace: { type: 'string' }, 'lock-seconds': { type: 'string', default: '30' }, 'max-per-minute': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`arbor worker: ${(e as Error).message}\n${workerUsage}\n`);
    return 2;
  }
  if (values.help) { process.stdout.write(`${workerUsage}\n`); return 0; }
  const usage = (m: string): number => { process.stderr.write(`arbor worker: ${m}\n`); return 2; };
  const name = values.name ?? `${hostname()}-${process.pid}`;
  const detected = await detectWorkerProvers();
  let backends = detected.backends;
  if (values.provers !== undefined) {
    const wanted = values.provers.split(',').map((p) => p.trim()).filter(Boolean);
    const unknown = wanted.find((p) => !(batchBackends as readonly string[]).includes(p));
    if (unknown) return usage(`unknown prover '${unknown}' (${batchBackends.join(', ')})`);
    const missing = wanted.find((p) => !detected.backends.includes(p as BatchBackend));
    if (missing) return usage(`${missing} is not installed here (${detected.details.join('; ')})`);
    backends = wanted as BatchBackend[];
  }
  let project;
  if (values.workspace !== undefined) {
    if (trustedProject === undefined) return usage('--workspace is not available here');
    try {
      project = await trustedProject(values.workspace);
    } catch (err) {
      process.stderr.write(`arbor worker: ${(err as Error).message}\n`);
      return 2;
    }
  }
  const provers: WorkerProvers = { ...detected, backends, ...(project !== undefined ? { project } : {}) };
  if (values.stdio) {
    await runStdioWorker(name, provers, process.stdin, process.stdout);
    return 0;
  }
  if (values.queue === undefined) { process.stderr.write(`${workerUsage}\n`); return 2; }
  try {
    redisConnection(values.queue);
  } catch (err) {
    return usage((err as Error).message);
  }
  const concurrency = Number(values.concurrency);
  const lockSeconds = Number(values['lock-seconds']);
  const maxPerMinute = values['max-per-minute'] === undefined ? undefined : Number(values['max-per-minute']);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) return usage('--concurrency must be an integer from 1 to 64');
  if (!(lockSeconds >= 1 && lockSeconds <= 3600)) return usage('--lock-seconds must be from 1 to 3600');
  if (maxPerMinute !== undefined && !(Number.isInteger(maxPerMinute) && maxPerMinute > 0)) return usage('--max-per-minute must be a positive integer');
  const log = (line: string): void => { process.stderr.write(`worker ${name}: ${line}\n`); };
  const worker = await startQueueWorker({ url: values.queue, name, provers, concurrency, lockMs: lockSeconds * 1000, ...(maxPerMinute ? { maxPerMinute } : {}), log });
  log(`provers ${backends.join(', ')} (${detected.details.join('; ')}); queues ${backends.map(queueName).join(', ')} on ${redisLabel(values.queue)}; concurrency ${concurrency}`);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) {
        // Second signal: leave now; BullMQ finds the jobs stalled and hands them on.
        void worker.close(true).finally(() => process.exit(130));
        return;
      }
      stopping = true;
      log('stopping: running jobs finish first (signal again to stop at once)');
      void worker.close().finally(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
