/**
 * A term, pattern or text as one quoted protocol argument that `parseRequest` reads back exactly: in double
 * quotes when that is unambiguous, else in a cartouche (Isabelle's own quoting, which every seed-000
 * parser reads), else with `\"` escapes as the last resort.
 */
export function quoteArgument(text: string): string {
  if (!text.includes('"') && !text.endsWith('\\')) return `"${text}"`;
  if (!/[‹›]/.test(text)) return `‹${text}›`;
  if (!text.includes('\\<open>') && !text.includes('\\<close>')) return `\\<open>${text}\\<close>`;
  return `"${text.replace(/"/g, '\\"')}"`;
}
