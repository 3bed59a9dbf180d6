import { z } from 'zod';
import { batchBackends, jobOutcomeSchema, jobProgressSchema } from '../../shared/batch/batch-job.ts';

/**
 * The local pool speaks JSON lines with its worker processes (`arbor worker --stdio`): the pool sends one
 * job at a time; the worker says it is ready, reports progress, and answers each job with its outcome or
 * with the exception that kept it from running the job (the pool then retries it).
 */
export const poolRequestSchema = z.object({ type: z.literal('job'), job: z.string(), data: z.unknown() });
export type PoolRequest = z.infer<typeof poolRequestSchema>;

export const poolReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), worker: z.string(), backends: z.array(z.enum(batchBackends)), eprover: z.boolean() }),
  z.object({ type: z.literal('progress'), job: z.string(), data: jobProgressSchema }),
  z.object({ type: z.literal('result'), job: z.string(), outcome: jobOutcomeSchema }),
  z.object({ type: z.literal('failed'), job: z.string(), message: z.string() }),
]);
export type PoolReply = z.infer<typeof poolReplySchema>;
