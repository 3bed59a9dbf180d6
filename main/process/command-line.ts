import { parse } from 'shell-quote';

/**
 * Splits a user-configured command line (`ARBOR_PANTOGRAPH`, the Isabelle command) into a program and
 * its arguments the way a POSIX shell splits words — with shell-quote — but runs no shell: operators
 * (`|`, `;`, `&&`, redirections), globs and substitutions are refused rather than silently meaning something else.
 */
export function splitCommandLine(text: string): string[] {
  let open: string | undefined;
  for (const c of text) {
    if (open) {
      if (c === open) open = undefined;
    } else if (c === '"' || c === "'") open = c;
  }
  if (open) throw new Error(`unclosed ${open} in command line`);
  const words: string[] = [];
  for (const token of parse(text, (name) => `$${name}`)) {
    if (typeof token !== 'string') {
      const what = 'op' in token ? token.op : 'pattern' in token ? 'glob' : 'comment';
      throw new Error(`command line: '${what}' is shell syntax; Arbor runs the program directly, without a shell`);
    }
    words.push(token);
  }
  return words;
}
