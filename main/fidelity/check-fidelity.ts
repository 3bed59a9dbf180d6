import { runFidelity } from '../../shared/fidelity/fidelity-pipeline.ts';
import type { FidelityProver } from '../../shared/fidelity/fidelity-prover.ts';
import { withStatementMeanings, type FidelityInput, type FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import { createCoqFidelityProver } from './coq-fidelity-prover.ts';
import { fragmentProblem } from '../provers/coq/coq-sentence.ts';
import { precheckUntrusted } from '../provers/coq/vernacular-policy.ts';
import { TextRefused } from '../provers/coq/coq-text-runner.ts';
import { CoqFailure, CoqTimeout } from '../provers/coq/coqidetop-client.ts';
import { coqContextReading, type ContextReading } from './coq-context-sentences.ts';
import { mentionsZ } from './coq-fidelity-prover.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';

/** A fidelity request whose text could escape the Coq sentence it is pasted into: refused before anything runs. */
export class FidelityInputRefused extends Error {}

/** One Coq prover per project (key: its arguments; '' without one), shared by every check. */
const sharedCoq = new Map<string, FidelityProver>();

/**
 * The one entry point for the CLI, the workbench panel and the MCP tool. Coq statements get the Coq
 * proof tiers; Lean statements get S0/S1 only (no Lean backend is configured), never a guessed verdict.
 * `project` is the workspace's trusted load paths (WorkspaceTrust.projectArgs): the context's delimiting
 * prover and every coqc run get them.
 */
export async function checkFidelity(input: FidelityInput, prover?: FidelityProver | null, project?: ProjectArgs): Promise<FidelityReport> {
  const backend = input.backend ?? 'coq';
  let reading: ContextReading | undefined;
  if (backend === 'coq') {
    // Statements and context are pasted into files `coqc` compiles: they are untrusted text like any other.
    for (const [what, text] of [['canonical', input.canonical], ['candidate', input.candidate]] as const) {
      const problem = fragmentProblem(text);
      if (problem !== undefined) throw new FidelityInputRefused(`parse error: ${what} statement: ${problem}`);
    }
    if (input.context !== undefined && input.context.trim() !== '') {
      const refused = precheckUntrusted(input.context, 'fidelity-context');
      if (refused !== undefined) throw new FidelityInputRefused(refused);
      // Coq delimits the context and the policy judges each of its sentences; the proof files are built from those only.
      // With the context in place, each statement is read as Coq elaborates it there: the verdict is about those.
      reading = await delimit(input, project);
    }
  }
  const p = prover !== undefined ? prover : backend === 'coq' ? coqProver(project) : null;
  const report = await runFidelity(input, p, undefined, reading?.sentences);
  return reading ? withStatementMeanings(report, reading.statements) : report;
}

function coqProver(project: ProjectArgs | undefined): FidelityProver {
  const key = project === undefined ? '' : JSON.stringify(project);
  let p = sharedCoq.get(key);
  if (p === undefined) {
    p = createCoqFidelityProver(project !== undefined ? { project } : {});
    sharedCoq.set(key, p);
  }
  return p;
}

async function delimit(input: FidelityInput, project: ProjectArgs | undefined): Promise<ContextReading> {
  const context = input.context ?? '';
  try {
    return await coqContextReading(context, {
      needsZ: mentionsZ([input.canonical, input.candidate, context]),
      classical: input.classical ?? false,
      statements: { canonical: input.canonical, candidate: input.candidate },
      ...(project !== undefined ? { project } : {}),
    });
  } catch (e) {
    if (e instanceof TextRefused) throw new FidelityInputRefused(e.message);
    if (e instanceof CoqFailure) throw new FidelityInputRefused(`context: ${e.message.replace(/\s+/g, ' ').trim()}`);
    if (e instanceof CoqTimeout) throw new FidelityInputRefused('context: timeout');
    throw e;
  }
}
