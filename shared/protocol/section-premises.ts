/**
 * A theorem finished inside an open section is proved under the section's hypotheses and variables it
 * uses: Coq lists them (`Print Assumptions`, "Section Variables") and `End` makes them premises of the
 * theorem. Such a result is conditional and must say so in words (issue 21): `Hypothesis H : False`
 * proves anything. The END that finished it carries them as `PREMISES` (read from Coq, never from text).
 */
export interface SectionPremise {
  /** `hypothesis`: its type is a proposition (Coq checked it is in `Prop`); `variable`: any other. */
  kind: 'hypothesis' | 'variable';
  name: string;
  /** Its type as Coq printed it. */
  statement: string;
}

const one = (p: SectionPremise): string => `${p.name} : ${p.statement}`;
const list = (items: string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** `proved, assuming the section's hypothesis H : False` (plain `proved` without premises). */
export function provedWording(premises: readonly SectionPremise[] | undefined): string {
  if (!premises || premises.length === 0) return 'proved';
  const hyps = premises.filter((p) => p.kind === 'hypothesis').map(one);
  const vars = premises.filter((p) => p.kind === 'variable').map(one);
  const parts = [
    ...(hyps.length ? [`the section's ${hyps.length === 1 ? 'hypothesis' : 'hypotheses'} ${list(hyps)}`] : []),
    ...(vars.length ? [`${hyps.length ? 'its' : 'the section\'s'} ${vars.length === 1 ? 'variable' : 'variables'} ${list(vars)}`] : []),
  ];
  return `proved, assuming ${parts.join(' and ')}`;
}
