import type { SectionPremise } from '../../../shared/protocol/section-premises.ts';
import { isQualid } from './assumptions.ts';
import { coqFlat } from './coq-sentence.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';

/**
 * The open section's variables a finished theorem uses (as Coq listed them: `Print Assumptions`, each
 * resolved by `Locate Term` to a `Variable`), each told hypothesis or variable by Coq itself: the cast
 * `(H : (_ : Prop))` type-checks only when H's type is a proposition.
 */
export async function sectionPremises(client: CoqideTopClient, vars: readonly { name: string; statement: string }[], limitMs: number): Promise<SectionPremise[]> {
  const out: SectionPremise[] = [];
  for (const v of vars) {
    // Only a name Coq printed (a qualid) is sent back, never other text.
    const isProp = isQualid(v.name) && await client.query(`Check (${v.name} : (_ : Prop)).`, client.tip, limitMs).then(() => true, () => false);
    out.push({ kind: isProp ? 'hypothesis' : 'variable', name: v.name, statement: coqFlat(v.statement) });
  }
  return out;
}
