/**
 * Classifying context entries as variables (their type is a type: its sort is Set/Type) or hypotheses
 * (their type is a Prop). The exact answer needs Coq (`Check`); these pure helpers keep that to one
 * query for the types whose shape does not already say "Prop", and read the query's answer.
 */
export type EntryKind = 'var' | 'hyp';

/** Connectives and relations that only build propositions (standard notations). */
const PROP_SHAPE = /(^|[\s(])(=|<>|<=|<|>=|>|\/\\|\\\/|<->|~)(?=[\s(]|$)|^(exists|True$|False$)|^~/;

/** True when the printed type is certainly a proposition. Cheap; no prover. */
export const looksLikeProp = (type: string): boolean => PROP_SHAPE.test(type);

/** `Check ((T1), (T2), …).` — one query for several types. */
export const sortQuery = (types: string[]): string => `Check (${types.map((t) => `(${t})`).join(', ')}).`;

/**
 * Reads `Check`'s answer "(T1, T2) : Set * Prop" into one kind per type, or undefined if it does not
 * have the expected shape (e.g. a type mentions something outside the first goal's context).
 */
export const kindsFromCheck = (output: string, count: number): EntryKind[] | undefined => {
  const flat = output.replace(/\s+/g, ' ').trim();
  const at = flat.lastIndexOf(' : ');
  if (at < 0) return undefined;
  const sorts = flat.slice(at + 3).split(' * ').map((s) => s.trim());
  if (sorts.length !== count) return undefined;
  const kinds: EntryKind[] = [];
  for (const s of sorts) {
    if (s === 'Prop' || s === 'SProp') kinds.push('hyp');
    else if (s === 'Set' || /^Type(@\{.*\})?$/.test(s)) kinds.push('var');
    else return undefined;
  }
  return kinds;
};

/** When Coq cannot tell us: Props by shape, implications and names like H… as hypotheses. */
export const guessKind = (name: string, type: string): EntryKind =>
  looksLikeProp(type) || / -> /.test(type) || /^H/.test(name) ? 'hyp' : 'var';
