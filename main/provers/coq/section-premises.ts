import type { SectionPremise } from '../../../shared/protocol/section-premises.ts';
import { isQualid } from './assumptions.ts';
import { coqFlat, coqTrim } from './coq-sentence.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';

/**
 * The open section's variables a finished theorem uses (as Coq listed them: `Print Assumptions`, each
 * resolved by `Locate Term` to a `Variable`), each told hypothesis or variable by Coq itself: the cast
 * `(H : (_ : Prop))` type-checks only when H's type is a proposition (or, for a name `Check` cannot parse, the
 * plugin's `Arbor_sort` says its type's sort is `Prop`).
 */
export async function sectionPremises(client: CoqideTopClient, vars: readonly { name: string; statement: string }[], limitMs: number): Promise<SectionPremise[]> {
  const out: SectionPremise[] = [];
  for (const v of vars) {
    // Only a name Coq printed (a qualid) is sent back, never other text.
    // A name a notation made a keyword (`land` after `Import Uint63`) cannot be parsed in `Check`: the plugin tells the
    // sort of its type from the name as a string (`Arbor_sort`); without it, a variable.
    const isProp = isQualid(v.name) && await client.query(`Check (${v.name} : (_ : Prop)).`, client.tip, limitMs).then(
      () => true,
      () => client.query(`Arbor_sort "${v.name}".`, client.tip, limitMs).then((m) => m.filter((x) => x.level === 'notice').map((x) => coqTrim(x.text)).join('\n') === 'Prop', () => false),
    );
    out.push({ kind: isProp ? 'hypothesis' : 'variable', name: v.name, statement: coqFlat(v.statement) });
  }
  return out;
}
