import { constantFromLocate, isQualid, parsePrintAssumptions } from './assumptions.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';
import { notices } from './statement-reading.ts';

/** Limit for a `Locate`/`Print Assumptions` of a `.v` file's theorem (no tactic runs). */
const QUERY_MS = 30_000;

/** An admitted proof of a `.v` file, by the kernel name Coq gave it. */
export interface AdmittedConstant {
  kernelName: string;
  name: string;
  /** Undefined when Coq made the constant without a theorem line of its own (`Unnamed_thm`, an obligation, a functor instance). */
  line?: number;
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
export async function admittedReliance(client: CoqideTopClient, name: string, state: number, admitted: ReadonlyMap<string, AdmittedConstant>, libraries: readonly string[] = []): Promise<AdmittedConstant[]> {
  if (!isQualid(name)) return [];
  const printed = parsePrintAssumptions(notices(await client.query(`Print Assumptions ${name}.`, state, QUERY_MS)));
  const out = new Map<string, AdmittedConstant>();
  for (const a of printed.axioms) {
    const full = await kernelNameAt(client, a.name, state);
    if (full === undefined) continue;
    // The project's compiled libraries hold their own admitted exercises and axioms (VFA's SearchTree.vo): each is
    // said too, by its kernel name (nothing of Coq's own library is, as before).
    const hit = admitted.get(full) ?? ownAxiom(full, a.name, admitted) ?? (libraries.some((l) => full.startsWith(`${l}.`)) ? { kernelName: full, name: a.name } : undefined);
    if (hit !== undefined) out.set(hit.kernelName, hit);
  }
  return [...out.values()];
}

/**
 * An axiom of the file's own library (`Top`, coqidetop's) that no named `Admitted` gave: the read-only policy
 * refuses every command that declares an assumption outside sections and module types, so Coq made it from an
 * admitted proof it named itself — an anonymous `Goal`'s `Unnamed_thm`, a Program obligation, the other half of
 * a mutual proof, or a functor's admitted lemma copied by an application (`G.a` for `F.a`). Matching by kernel
 * names alone missed those. The line is the admitted lemma's whose name ends the same way, when there is one.
 */
function ownAxiom(kernelName: string, printed: string, admitted: ReadonlyMap<string, AdmittedConstant>): AdmittedConstant | undefined {
  if (!kernelName.startsWith('Top.')) return undefined;
  const last = kernelName.split('.').at(-1);
  const like = [...admitted.values()].find((c) => c.kernelName.split('.').at(-1) === last);
  return { kernelName, name: printed, ...(like?.line !== undefined ? { line: like.line } : {}) };
}

/** The logical names a trusted project binds (`-Q dir VFA`, `-R dir Lib`, as coq-project.ts builds its arguments). */
export function projectLibraries(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 2 < args.length; i++) {
    if (args[i] === '-Q' || args[i] === '-R') {
      out.push(args[i + 2] as string);
      i += 2;
    }
  }
  return out;
}
