import { z } from 'zod';
import { checkFidelity, FidelityInputRefused } from '../fidelity/check-fidelity.ts';
import { formatReport } from '../fidelity/fidelity-command.ts';
import type { FidelityProver } from '../../shared/fidelity/fidelity-prover.ts';
import { injectionProblem } from '../../shared/fidelity/fidelity-pipeline.ts';
import { tierIds } from '../../shared/fidelity/fidelity-types.ts';
import type { FidelityInput, FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import { ToolError } from './tool-error.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';

const statement = z.string().min(1).max(10_000);

/** `check_statement_fidelity`'s arguments: `checkFidelity`'s input, with the timeout in seconds as agents think of it. */
export const fidelityToolShape = {
  canonical: statement.describe('the reference statement, e.g. "forall n : nat, n + 0 = n"'),
  candidate: statement.describe('the statement to compare with it'),
  context: z.string().max(100_000).optional().describe('Coq vernacular both statements share, e.g. "Variable P : nat -> Prop."'),
  backend: z.enum(['coq', 'lean']).optional().describe('statement syntax (default coq; lean gets S0/S1 only)'),
  tiers: z.array(z.enum(tierIds)).min(1).max(tierIds.length).optional().describe(`tiers to run, in order (default all: ${tierIds.join(', ')})`),
  timeout: z.number().positive().max(600).optional().describe('seconds per proof attempt (default 4)'),
  classical: z.boolean().optional().describe('allow classical reasoning (default false)'),
};
export type FidelityToolArgs = z.output<z.ZodObject<typeof fidelityToolShape>>;

/**
 * Runs `checkFidelity` for an agent: the report as readable lines, then as JSON for programs.
 * A statement that could break out of a Coq sentence is a bad argument, not a verdict.
 */
export async function runFidelityTool(a: FidelityToolArgs, prover?: FidelityProver | null, project?: ProjectArgs): Promise<string> {
  for (const [name, text] of [['canonical', a.canonical], ['candidate', a.candidate]] as const) {
    const problem = (a.backend ?? 'coq') === 'coq' ? injectionProblem(text) : null;
    if (problem) throw new ToolError('bad_argument', `${name}: ${problem}`);
  }
  const input: FidelityInput = {
    canonical: a.canonical, candidate: a.candidate, backend: a.backend ?? 'coq', classical: a.classical ?? false,
    ...(a.context !== undefined ? { context: a.context } : {}),
    ...(a.tiers ? { tiers: a.tiers } : {}),
    ...(a.timeout !== undefined ? { timeoutMs: Math.max(1, Math.round(a.timeout * 1000)) } : {}),
  };
  const report: FidelityReport = await checkFidelity(input, prover, project).catch((e: unknown) => {
    if (e instanceof FidelityInputRefused) throw new ToolError('bad_argument', e.message);
    throw e;
  });
  return `=== STATEMENT FIDELITY ===\n\n${formatReport(report)}\n=== REPORT (JSON) ===\n${JSON.stringify(report)}`;
}
