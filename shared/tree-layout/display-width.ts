import stringWidth from 'string-width';

/**
 * Text widths in columns as a monospace font draws them: CJK and other East-Asian wide characters take two,
 * combining marks none (`string-width`). Boxes are sized and wrapped in columns, not characters, so a
 * double-width hypothesis stays inside its chip. Text with nothing at or above U+1100 (the first wide
 * block) is measured by its length: the layout of 50,000 nodes measures every chip.
 */
const MAYBE_WIDE = /[\u1100-\u{10ffff}]/u;

export const displayWidth = (text: string): number => (MAYBE_WIDE.test(text) ? stringWidth(text) : text.length);

/** The end (a string index) of the longest start of `text` at most `columns` wide; never inside a code point. */
export function indexAtColumns(text: string, columns: number): number {
  if (!MAYBE_WIDE.test(text)) return Math.min(text.length, Math.max(0, columns));
  let used = 0;
  let at = 0;
  for (const ch of text) {
    used += stringWidth(ch);
    if (used > columns) break;
    at += ch.length;
  }
  return at;
}
