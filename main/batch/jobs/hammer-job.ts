import type { BatchJob } from '../../../shared/batch/batch-job.ts';
import { ERROR_OUTCOME } from '../../../shared/batch/batch-job.ts';
import { provedVerdict } from '../../../shared/protocol/statement-meaning.ts';
import { provedWording } from '../../../shared/protocol/section-premises.ts';
import { quoteArgument } from '../../../shared/protocol/quote-argument.ts';
import type { CoqShells } from '../coq-shells.ts';
import type { KindResult } from './kind-result.ts';

/**
 * A statement through the shell's HAMMER on Coq, then END: `proved` only when END closed the theorem in the
 * kernel (Qed, assumptions read) and the statement means what its text says in a clean environment
 * (`proved-different-meaning` with STATEMENT otherwise); `refuted` when HAMMER's counterexample search found it false (checked by
 * Coq); `unproved` otherwise, with HAMMER_REPORT saying what each stage tried.
 */
export async function runHammerJob(job: Extract<BatchJob, { kind: 'hammer' }>, shells: CoqShells): Promise<KindResult> {
  // The shell's own limit is the HAMMER budget (with room for END's Qed); the statement goes through GOAL's policy.
  const channel = await shells.open(Math.round(job.seconds * 1000));
  try {
    if (job.context !== undefined) {
      const defined = await channel.request(`DEFINE ${quoteArgument(job.context)}`);
      if (defined.ERR) return { outcome: ERROR_OUTCOME, evidence: { stage: 'context', message: defined.ERR } };
    }
    const goal = await channel.request(`GOAL ${quoteArgument(job.statement)}`);
    if (goal.ERR) return { outcome: ERROR_OUTCOME, evidence: { stage: 'statement', message: goal.ERR } };
    const hammered = await channel.request(`HAMMER ${job.seconds}`);
    if (hammered.ERR) {
      const refuted = hammered.ERR.startsWith('fail: the goal is false');
      return { outcome: refuted ? 'refuted' : 'unproved', evidence: { message: hammered.ERR, report: hammered.HAMMER_REPORT } };
    }
    const end = await channel.request('END');
    if (end.ERR) return { outcome: 'unproved', evidence: { message: end.ERR, report: hammered.HAMMER_REPORT } };
    // `proved` only when the statement means what its text says in a clean environment; otherwise both readings (issue 21).
    // Proved inside a section the context left open, under its hypotheses: conditional, and said so in words.
    if (end.PREMISES?.length) {
      return { outcome: 'proved-under-premises', evidence: { verdict: provedWording(end.PREMISES), premises: end.PREMISES, ...(end.STATEMENT ? { statement: end.STATEMENT } : {}), closedWith: hammered.HAMMER_REPORT?.closedWith, script: end.SCRIPT, assumptions: end.ASSUMPTIONS, report: hammered.HAMMER_REPORT } };
    }
    return {
      outcome: provedVerdict(end.STATEMENT),
      evidence: { closedWith: hammered.HAMMER_REPORT?.closedWith, script: end.SCRIPT, assumptions: end.ASSUMPTIONS, ...(end.STATEMENT ? { statement: end.STATEMENT } : {}), report: hammered.HAMMER_REPORT },
    };
  } finally {
    await channel.release();
  }
}
