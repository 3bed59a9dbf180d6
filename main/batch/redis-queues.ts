import type { BatchBackend } from '../../shared/batch/batch-job.ts';

/** Keys of Arbor's queues start with `arbor:` (BullMQ's prefix), so they sit beside other data in one Redis. */
export const QUEUE_PREFIX = 'arbor';

/** One queue per prover a job needs: a worker listens only on the queues of the provers it has. */
export const queueName = (backend: BatchBackend): string => `batch-${backend}`;

/**
 * BullMQ's connection options for `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS).
 * Requests wait through a Redis restart instead of failing (`maxRetriesPerRequest: null`), so a batch and
 * its workers ride it out; the address is checked here so a typo is a usage error, not a hang.
 */
export function redisConnection(url: string): { url: string; maxRetriesPerRequest: null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--queue expects redis://HOST:PORT, not '${url}'`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new Error(`--queue expects redis://HOST:PORT (or rediss://), not '${url}'`);
  if (parsed.hostname === '') throw new Error(`--queue: no host in '${url}'`);
  return { url, maxRetriesPerRequest: null };
}

/** The address without a password, for messages. */
export const redisLabel = (url: string): string => url.replace(/\/\/[^@/]*@/, '//');
