import { runFidelity } from '../../shared/fidelity/fidelity-pipeline.ts';
import type { FidelityProver } from '../../shared/fidelity/fidelity-prover.ts';
import type { FidelityInput, FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import { createCoqFidelityProver } from './coq-fidelity-prover.ts';

let sharedCoq: FidelityProver | null = null;

/**
 * The one entry point for the CLI, the workbench panel and the MCP tool. Coq statements get the Coq
 * proof tiers; Lean statements get S0/S1 only (no Lean backend is configured), never a guessed verdict.
 */
export async function checkFidelity(input: FidelityInput, prover?: FidelityProver | null): Promise<FidelityReport> {
  const backend = input.backend ?? 'coq';
  const p = prover !== undefined ? prover : backend === 'coq' ? (sharedCoq ??= createCoqFidelityProver()) : null;
  return runFidelity(input, p);
}
