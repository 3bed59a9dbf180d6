/**
 * A term, pattern or text as one quoted protocol argument that `parseRequest` reads back exactly: in double
 * quotes when that is unambiguous, else in a cartouche (Isabelle's own quoting, which every seed-000
 * parser reads), else with `\"` escapes as the last resort — unless the text ends in a backslash, which
 * would escape the closing quote: then a cartouche whose delimiters the text holds balanced (the parser
 * nests them). The last resort cannot hold a trailing backslash (`\"` would read as a quote);
 * no text the parser produced needs it (a cartouche's body is balanced in its own delimiters).
 */
export function quoteArgument(text: string): string {
  if (!text.includes('"') && !text.endsWith('\\')) return `"${text}"`;
  if (!/[‹›]/.test(text)) return `‹${text}›`;
  if (!text.includes('\\<open>') && !text.includes('\\<close>')) return `\\<open>${text}\\<close>`;
  // A trailing backslash would escape the closing quote: a cartouche the text nests in exactly, if any.
  if (text.endsWith('\\') && balanced(text, '‹', '›')) return `‹${text}›`;
  if (text.endsWith('\\') && balanced(text, '\\<open>', '\\<close>')) return `\\<open>${text}\\<close>`;
  return `"${text.replace(/"/g, '\\"')}"`;
}

/** Whether a cartouche around `text` closes where it ends: every close matches an earlier open, as the parser counts. */
function balanced(text: string, open: string, close: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length;) {
    if (text.startsWith(open, i)) {
      depth++;
      i += open.length;
    } else if (text.startsWith(close, i)) {
      if (--depth < 0) return false;
      i += close.length;
    } else i++;
  }
  return depth === 0;
}
