import { diffText } from '../tree-diff/text-diff.ts';

/** One run of a side of a diff: text both sides share, or text only this side has. */
export interface DiffSegment { text: string; same: boolean }

/**
 * Two normal forms side by side: each side as segments of the one text diff (shared/tree-diff/text-diff),
 * so the fidelity panel can highlight what differs. Blanks are never highlighted: a changed operator
 * should not drag its surrounding spaces along.
 */
export function tokenDiff(a: string, b: string): { left: DiffSegment[]; right: DiffSegment[] } {
  const left: DiffSegment[] = [];
  const right: DiffSegment[] = [];
  const push = (side: DiffSegment[], text: string, matched: boolean): void => {
    for (const piece of text.split(/(\s+)/u)) {
      if (piece === '') continue;
      const same = matched || /^\s+$/u.test(piece);
      const last = side[side.length - 1];
      if (last && last.same === same) last.text += piece;
      else side.push({ text: piece, same });
    }
  };
  for (const part of diffText(a, b)) {
    if (part.kind !== 'added') push(left, part.text, part.kind === 'same');
    if (part.kind !== 'removed') push(right, part.text, part.kind === 'same');
  }
  return { left, right };
}
