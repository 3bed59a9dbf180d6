/**
 * Which editor line produced which STEP (Proof-General-style checking). A document is checked as a
 * prefix: every command line up to `entries.at(-1).line` has been sent, in order, on the document's channel.
 * Pure, so the incremental re-checking rule ("editing line k re-sends only lines ≥ k") is tested in Node.
 */
export interface CheckedLine {
  /** 1-based editor line. */
  line: number;
  /** The text that was sent (to notice edits that did not move the cursor through it). */
  text: string;
  /** The channel's step before this line ran (0: no proof yet) and after it. */
  stepBefore: number;
  stepAfter: number;
}

/** Lines that carry requests: everything but blank lines and `//` comment lines (no response). */
export function isCommandLine(text: string): boolean {
  const t = text.trim();
  return t !== '' && !t.startsWith('//');
}

/** The 1-based numbers of the command lines in `lines`, from `from` through `to`. */
export function commandLinesBetween(lines: readonly string[], from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = Math.max(1, from); n <= Math.min(to, lines.length); n++) if (isCommandLine(lines[n - 1] as string)) out.push(n);
  return out;
}

export interface Retraction {
  kept: CheckedLine[];
  dropped: CheckedLine[];
  /**
   * What the channel must do to forget the dropped lines: `revert` to a step, `reset` (the proof's
   * GOAL line itself is dropped, so nothing of the proof survives), or nothing.
   */
  action: { kind: 'revert'; step: number } | { kind: 'reset' } | { kind: 'none' };
}

/** Forget every checked line at or after `line` (an edit there, or stepping back to before it). */
export function retractFrom(entries: readonly CheckedLine[], line: number): Retraction {
  const cut = entries.findIndex((e) => e.line >= line);
  if (cut < 0) return { kept: [...entries], dropped: [], action: { kind: 'none' } };
  const kept = entries.slice(0, cut);
  const dropped = entries.slice(cut);
  const first = dropped[0] as CheckedLine;
  const last = kept[kept.length - 1];
  // Lines without a step (a failed GOAL, STATE) keep stepBefore; the kept prefix's last step is the target.
  const target = last ? last.stepAfter : first.stepBefore;
  return { kept, dropped, action: target >= 1 ? { kind: 'revert', step: target } : { kind: 'reset' } };
}

/** The checked entries no longer matching the document (a line's text changed, or lines moved): first bad line. */
export function firstStaleLine(entries: readonly CheckedLine[], lines: readonly string[]): number | undefined {
  for (const e of entries) if (lines[e.line - 1] !== e.text) return e.line;
  return undefined;
}

/**
 * Where a text sent whole (no edit given: a file reloaded, a client that syncs whole texts) differs from the
 * last one: the first line that is not the same and the change in line count; undefined for the same text.
 */
export function changedLines(before: readonly string[], after: readonly string[]): { firstLine: number; lineDelta: number } | undefined {
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  if (same === before.length && same === after.length) return undefined;
  return { firstLine: same + 1, lineDelta: after.length - before.length };
}

/** After editing, how far to re-check: the old checked end moved by the change in line count. */
export function recheckTarget(oldEnd: number, editLine: number, lineDelta: number): number {
  return oldEnd >= editLine ? Math.max(editLine, oldEnd + lineDelta) : oldEnd;
}
