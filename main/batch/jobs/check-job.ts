import type { BatchJob } from '../../../shared/batch/batch-job.ts';
import { splitRequests } from '../../../shared/protocol/split-requests.ts';
import { coqErrorMessage, runCoqc } from '../../fidelity/run-coqc.ts';
import type { CoqShells } from '../coq-shells.ts';
import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import type { KindResult } from './kind-result.ts';

const COQC_LIMIT_MS = 300_000;

/**
 * A proof document checked to the end through the shell, then its SCRIPT checked by `coqc` alone with
 * `Print Assumptions` for every theorem: `verified` only when coqc accepts it and every finished statement
 * means what its text says in a clean environment (`verified-different-meaning`, with each STATEMENT, otherwise); `failed` at the first request
 * the shell refused (its line and ERR); `unfinished` when the document leaves a proof open; `rejected` when
 * coqc refuses a script the shell produced (which would be Arbor's bug, so it is reported as such). With the
 * worker's trusted project (`--workspace`) the shell's provers and coqc both get its load paths.
 */
export async function runCheckJob(job: Extract<BatchJob, { kind: 'check' }>, shells: CoqShells, progress: (fraction: number) => void): Promise<KindResult> {
  const lines = job.document.split(/\r?\n/);
  const channel = await shells.open(job.timeoutMs);
  let script: string;
  let requests = 0;
  /** Finished theorems whose statements mean something else than their text in a clean environment. */
  const meanings: { line: number; statement: StatementMeaning }[] = [];
  /** Theorems proved inside a section under its hypotheses (END's CONDITIONAL, in words). */
  const conditional: { line: number; verdict: string }[] = [];
  try {
    for (const [k, line] of lines.entries()) {
      for (const request of splitRequests(line)) {
        const r = await channel.request(request.text);
        requests++;
        if (r.ERR) return { outcome: 'failed', evidence: { line: k + 1, request: request.text.slice(0, 500), error: r.ERR } };
        if (r.STATEMENT) meanings.push({ line: k + 1, statement: r.STATEMENT });
        if (r.CONDITIONAL) conditional.push({ line: k + 1, verdict: r.CONDITIONAL });
      }
      progress((k + 1) / lines.length);
    }
    const s = await channel.request('SCRIPT');
    if (s.ERR || typeof s.RESPONSE !== 'string') return { outcome: 'failed', evidence: { line: lines.length, request: 'SCRIPT', error: s.ERR || 'no script' } };
    script = s.RESPONSE;
  } finally {
    await channel.release();
  }
  if (/\bAdmitted\./.test(script)) return { outcome: 'unfinished', evidence: { requests, message: 'the document ends with a proof still open', script } };
  const theorems = [...script.matchAll(/^(?:Theorem|Lemma) (\S+) :/gm)].map((m) => m[1] as string);
  const r = await runCoqc(`${script}\n${theorems.map((t) => `Print Assumptions ${t}.`).join('\n')}\n`, { killAfterMs: COQC_LIMIT_MS, ...(shells.project !== undefined ? { project: shells.project } : {}) });
  if (!r.ok) return { outcome: 'rejected', evidence: { requests, message: r.timedOut ? `coqc ran out of time (${COQC_LIMIT_MS / 1000} s)` : coqErrorMessage(r.output), script } };
  const closed = r.output.match(/Closed under the global context/g)?.length ?? 0;
  return {
    outcome: meanings.length > 0 ? 'verified-different-meaning' : 'verified',
    evidence: { requests, theorems, closed, coqcMs: Math.round(r.ms), ...(meanings.length > 0 ? { statements: meanings } : {}), ...(conditional.length > 0 ? { conditional } : {}), ...(closed < theorems.length ? { assumptions: r.output.trim().slice(0, 4000) } : {}) },
  };
}
