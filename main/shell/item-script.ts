import type { ScriptItem } from './prover-session.ts';

/**
 * The finishing END's SCRIPT is at most this many characters. Past it the response's SCRIPT is a one-line
 * comment saying so (the whole document's script stays available through the `SCRIPT` command).
 */
export const END_SCRIPT_MAX = 1 << 20;

/** The SCRIPT of a finishing END whose script would pass END_SCRIPT_MAX (a comment in Coq's and Isabelle's syntax). */
export function scriptOverCap(length: number): string {
  return `(* Arbor: this proof's script has ${length} characters, more than the ${END_SCRIPT_MAX} an END response carries; send SCRIPT for the whole document's script *)\n`;
}

const IDENT = /[\p{L}_][\p{L}\p{N}_']*/gu;

/** A script piece's identifiers, kept per piece: every END reads every earlier item again (a document's pieces never change once recorded). */
const known = new WeakMap<readonly string[], readonly string[]>();
const identifiersOf = (lines: readonly string[]): readonly string[] => {
  let ids = known.get(lines);
  if (ids === undefined) {
    ids = [...new Set(lines.join('\n').match(IDENT) ?? [])];
    known.set(lines, ids);
  }
  return ids;
};

/** A statement's identifiers, kept by its text (bounded: a document's statements, not every string seen). */
const statementIds = new Map<string, readonly string[]>();
const identifiersOfStatement = (goal: string): readonly string[] => {
  let ids = statementIds.get(goal);
  if (ids === undefined) {
    if (statementIds.size >= 10_000) statementIds.clear();
    ids = [...new Set(goal.match(IDENT) ?? [])];
    statementIds.set(goal, ids);
  }
  return ids;
};

/** The item's identifiers, piece by piece (a name may come more than once). */
const identifiers = (item: ScriptItem): (readonly string[])[] =>
  item.kind === 'define' ? [identifiersOf(item.script)] : [identifiersOfStatement(item.goal), ...item.steps.map(identifiersOf)];

/**
 * The items the last proof needs to be checked alone: every declaration before it and the earlier
 * theorems it (or what it needs) mentions by name, instead of the whole document. 3,000 small proofs
 * made every END repeat all earlier ones (288 MiB of output in all).
 */
export function itemWithDependencies(items: readonly ScriptItem[]): ScriptItem[] {
  const last = items.at(-1);
  if (last?.kind !== 'proof') return [...items];
  const needed = new Set(identifiers(last).flat());
  const keep: ScriptItem[] = [last];
  for (let i = items.length - 2; i >= 0; i--) {
    const item = items[i] as ScriptItem;
    if (item.kind === 'proof' && !needed.has(item.name)) continue;
    keep.push(item);
    for (const ids of identifiers(item)) for (const name of ids) needed.add(name);
  }
  return keep.reverse();
}
