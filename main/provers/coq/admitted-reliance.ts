import { constantFromLocate, isQualid, parsePrintAssumptions } from './assumptions.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';
import { notices } from './statement-reading.ts';

/** Limit for a `Locate`/`Print Assumptions` of a `.v` file's theorem (no tactic runs). */
const QUERY_MS = 30_000;

/** An admitted proof of a `.v` file, by the kernel name Coq gave it. */
export interface AdmittedConstant {
  kernelName: string;
  name: string;
  line: number;
}

/** The kernel name of the constant `name` at state `state` (Coq's `Locate Term`: kinds and paths only), or undefined. */
export async function kernelNameAt(client: CoqideTopClient, name: string, state: number): Promise<string | undefined> {
  if (!isQualid(name)) return undefined;
  return constantFromLocate(notices(await client.query(`Locate Term ${name}.`, state, QUERY_MS).catch(() => [])));
}

/**
 * The admitted constants a theorem rests on, as Coq says: `Print Assumptions` at the state after its proof
 * lists every axiom it depends on (an admitted lemma is one), and each printed name is resolved to its
 * kernel name with `Locate Term` at that same state — so a lemma named like an admitted one, a notation or
 * a string in a type can neither hide nor fake a reliance.
 */
export async function admittedReliance(client: CoqideTopClient, name: string, state: number, admitted: ReadonlyMap<string, AdmittedConstant>): Promise<AdmittedConstant[]> {
  if (admitted.size === 0 || !isQualid(name)) return [];
  const printed = parsePrintAssumptions(notices(await client.query(`Print Assumptions ${name}.`, state, QUERY_MS)));
  const out = new Map<string, AdmittedConstant>();
  for (const a of printed.axioms) {
    const full = await kernelNameAt(client, a.name, state);
    const hit = full === undefined ? undefined : admitted.get(full);
    if (hit !== undefined) out.set(hit.kernelName, hit);
  }
  return [...out.values()];
}
