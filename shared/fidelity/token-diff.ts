/** One run of a side of a diff: text both sides share, or text only this side has. */
export interface DiffSegment { text: string; same: boolean }

/** Identifiers, numbers, runs of spaces, and single other characters (operators, brackets, Unicode symbols). */
export function diffTokens(text: string): string[] {
  return text.match(/\s+|[\p{L}_][\p{L}\p{N}_']*|\p{N}+|./gsu) ?? [];
}

/**
 * A token-level diff of two normal forms (LCS): each side as segments, so the panel can highlight what
 * differs. Token-level, not character-level: `x` vs `x0` should show one changed name, not a stray `0`.
 */
export function tokenDiff(a: string, b: string): { left: DiffSegment[]; right: DiffSegment[] } {
  const x = diffTokens(a);
  const y = diffTokens(b);
  // Normal forms are short; a quadratic table is fine, but bound it so a pasted essay cannot stall the UI.
  if (x.length * y.length > 250_000) return { left: [{ text: a, same: a === b }], right: [{ text: b, same: a === b }] };
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = x[i] === y[j] ? (lcs[i + 1] as number[])[j + 1] as number + 1 : Math.max((lcs[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  }
  const left: DiffSegment[] = [];
  const right: DiffSegment[] = [];
  const push = (side: DiffSegment[], text: string, matched: boolean): void => {
    // Spaces are never highlighted: a changed operator should not drag its surrounding blanks along.
    const same = matched || /^\s+$/u.test(text);
    const last = side[side.length - 1];
    if (last && last.same === same) last.text += text;
    else side.push({ text, same });
  };
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      push(left, x[i] as string, true);
      push(right, y[j] as string, true);
      i++;
      j++;
    } else if (j >= y.length || (i < x.length && ((lcs[i + 1] as number[])[j] as number) >= ((lcs[i] as number[])[j + 1] as number))) {
      push(left, x[i++] as string, false);
    } else {
      push(right, y[j++] as string, false);
    }
  }
  return { left, right };
}
