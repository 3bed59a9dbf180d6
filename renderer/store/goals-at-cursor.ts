import type { CheckedLine } from '../../shared/checking/checked-lines.ts';
import type { DocumentCheck } from '../../shared/checking/document-check.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ChannelTrees } from './proof-slice.ts';
import type { ArborState } from './store.ts';

/**
 * The proof state around the line under the cursor, as coq-lsp and Lean's infoview show it: the state
 * before the line's command and after it. Read from the trees the renderer already holds for each step
 * (the host keeps every checked line's steps), so moving the cursor costs no prover round trip.
 */
export type GoalsAtCursor =
  | { kind: 'none' }
  /** A checked command line: the states at its steps (`undefined`: not here yet, asked of the host). */
  | { kind: 'checked'; line: number; entry: CheckedLine; before: TreeView | null | undefined; after: TreeView | null | undefined; notProved?: string }
  /** A blank or comment line inside the checked region: the state after the command line above it. */
  | { kind: 'between'; line: number; entry: CheckedLine; after: TreeView | null | undefined; notProved?: string }
  /** The line that failed: the state it ran on, and the error. */
  | { kind: 'failed'; line: number; before: TreeView | null | undefined; error: string }
  /** Below the checked region: the state the next line will run on (after the last checked line). */
  | { kind: 'unchecked'; line: number; checkedThrough: number; before: TreeView | null | undefined };

/** The last checked line at or above `line` (entries are in line order): binary search, for long documents. */
export function entryAtOrAbove(entries: readonly CheckedLine[], line: number): CheckedLine | undefined {
  let lo = 0;
  let hi = entries.length - 1;
  let found: CheckedLine | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = entries[mid] as CheckedLine;
    if (e.line <= line) {
      found = e;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A step's tree: the renderer's copy, else one fetched from the host; `undefined` when neither has it. Step 0: no proof. */
export function treeOfStep(trees: ChannelTrees | undefined, fetched: Record<string, TreeView | null>, channel: number | undefined, step: number): TreeView | null | undefined {
  if (step === 0) return null;
  const local = trees?.byStep[step];
  if (local !== undefined) return local;
  return channel === undefined ? undefined : fetched[`${channel}:${step}`];
}

export function goalsAtLine(check: DocumentCheck, line: number, tree: (step: number) => TreeView | null | undefined): GoalsAtCursor {
  const entry = entryAtOrAbove(check.entries, line);
  const end = check.entries.at(-1)?.line ?? 0;
  if (check.error && check.error.line === line) {
    return { kind: 'failed', line, before: tree(entry?.stepAfter ?? 0), error: check.error.message };
  }
  if (line > end) return { kind: 'unchecked', line, checkedThrough: end, before: tree(check.entries.at(-1)?.stepAfter ?? 0) };
  if (!entry) return { kind: 'none' };
  if (entry.line === line) return { kind: 'checked', line, entry, before: tree(entry.stepBefore), after: tree(entry.stepAfter) };
  return { kind: 'between', line, entry, after: tree(entry.stepAfter) };
}

let memo: { check: DocumentCheck; trees: ChannelTrees | undefined; fetched: Record<string, TreeView | null>; line: number; value: GoalsAtCursor } | undefined;

/** The goals at the cursor of the active document (memoised on what it reads). */
export const selectGoalsAtCursor = (s: ArborState): GoalsAtCursor => {
  const uri = s.documents.activeUri;
  const at = s.cursor.at;
  if (!uri || !at || at.uri !== uri) return NONE;
  const check = s.checking[uri];
  if (!check) return NONE;
  const channel = s.documents.docs[uri]?.channel;
  const trees = channel === undefined ? undefined : s.proof.trees[channel];
  const fetched = s.cursor.fetched;
  if (memo && memo.check === check && memo.trees === trees && memo.fetched === fetched && memo.line === at.line) return memo.value;
  const value = goalsAtLine(check, at.line, (step) => treeOfStep(trees, fetched, channel, step));
  memo = { check, trees, fetched, line: at.line, value };
  return value;
};

const NONE: GoalsAtCursor = { kind: 'none' };

/** Steps the goals at the cursor need that the renderer does not hold (to ask the host for). */
export function missingSteps(g: GoalsAtCursor, check: DocumentCheck): number[] {
  const out: number[] = [];
  if (g.kind === 'checked') {
    if (g.before === undefined) out.push(g.entry.stepBefore);
    if (g.after === undefined) out.push(g.entry.stepAfter);
  } else if (g.kind === 'between' && g.after === undefined) out.push(g.entry.stepAfter);
  else if ((g.kind === 'failed' || g.kind === 'unchecked') && g.before === undefined) out.push(check.entries.at(-1)?.stepAfter ?? 0);
  return out.filter((s) => s > 0);
}

/**
 * The proof state a command on `line` runs in (completion and hover there): the state before a checked
 * line, else the state after the checked line above it (for the line being typed below the region).
 */
export function stateForLine(check: DocumentCheck, line: number, tree: (step: number) => TreeView | null | undefined): TreeView | null | undefined {
  const entry = entryAtOrAbove(check.entries, line);
  if (entry && entry.line === line) return tree(entry.stepBefore);
  return tree(entry?.stepAfter ?? 0);
}

/** `stateForLine` for the active document, from the store. */
export function activeStateForLine(s: ArborState, line: number): TreeView | null | undefined {
  const uri = s.documents.activeUri;
  const check = uri ? s.checking[uri] : undefined;
  if (!uri || !check) return undefined;
  const channel = s.documents.docs[uri]?.channel;
  const trees = channel === undefined ? undefined : s.proof.trees[channel];
  return stateForLine(check, line, (step) => treeOfStep(trees, s.cursor.fetched, channel, step));
}
