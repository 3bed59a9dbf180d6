import type { CheckedLine } from '../checking/checked-lines.ts';
import { commandLinesBetween } from '../checking/checked-lines.ts';
import type { Suggestion } from './agent-types.ts';
import { commandAt } from '../protocol/commands.ts';

/** A HAVE or OBTAIN line: the lines proving it are indented under it. */
const opensProofBlock = (line: string): boolean => {
  const c = commandAt(line);
  return c?.opensBlock === true && c.level === 'proof';
};

/** Where an accepted suggestion goes in the script: replace `[from, to)` lines (1-based; from = to inserts). */
export interface Placement {
  /** The first line replaced, or the line the text is inserted before. */
  line: number;
  /** Lines replaced (0: an insertion). */
  replace: number;
  /** The new line, indented. */
  text: string;
  /** The last line the checker must run through to check it. */
  checkThrough: number;
}

/** An accepted suggestion as one script line: its commands joined by `; ` (a hypothesis edit: `HAVE H' "…"; END; APPLY (try (clear H; rename H' into H))`). */
export function suggestionLine(s: Pick<Suggestion, 'apply'>): string {
  return s.apply.join('; ');
}

/**
 * Why a suggestion can no longer be inserted as it is, or undefined while it still fits: it was checked
 * against the state after step `s.step`, so it belongs right after the last checked line and only while
 * that line produced that step. Once the document moved on (lines checked past it, an edit above it, a
 * step back) it is stale: inserting it would put it in the middle of a proof it was not made for.
 */
export function staleReason(entries: readonly CheckedLine[], s: Pick<Suggestion, 'step'>): string | undefined {
  const last = entries.at(-1);
  if (last?.stepAfter === s.step) return undefined;
  const anchor = [...entries].reverse().find((e) => e.stepAfter === s.step);
  if (anchor && last) return `made for the state after line ${anchor.line}; the document has moved on to line ${last.line} since`;
  return `made for step ${s.step}, a state the document no longer has (it was edited or stepped back)`;
}

/**
 * Where the suggestion's line goes: right after the checked line that produced the step it was checked
 * against (normally the last checked line), replacing the next command line when that line is the one
 * that failed there (the suggestion is about it). Indented like the line it replaces or precedes.
 */
export function placeSuggestion(
  lines: readonly string[],
  entries: readonly CheckedLine[],
  error: { line: number } | undefined,
  s: Pick<Suggestion, 'apply' | 'step'>,
): Placement {
  const anchor = [...entries].reverse().find((e) => e.stepAfter === s.step) ?? entries.at(-1);
  const after = anchor?.line ?? 0;
  const next = commandLinesBetween(lines, after + 1, lines.length)[0];
  const indentOf = (n: number): string => /^\s*/.exec(lines[n - 1] ?? '')?.[0] ?? '';
  const anchorText = anchor ? lines[anchor.line - 1] ?? '' : '';
  const indent = next !== undefined ? indentOf(next)
    : anchor ? indentOf(anchor.line) + (opensProofBlock(anchorText) ? '    ' : '') : '';
  const text = `${indent}${suggestionLine(s)}`;
  if (next !== undefined && error?.line === next) return { line: next, replace: 1, text, checkThrough: next };
  // Insert right after the anchor (before any blank or comment lines that follow it).
  return { line: after + 1, replace: 0, text, checkThrough: after + 1 };
}
