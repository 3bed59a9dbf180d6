/**
 * Minilang's and Isa-REPL's error messages as Arbor's stable errors (BRIEF §3). The sources:
 * `REPL/library/toplevel.ML` prefixes Minilang's failures with `PROOF FAIL : ` or `INVALID_OPR : `;
 * a `\eval` past its limit is Isabelle's `Timeout.TIMEOUT` (`Timeout after …s`), and a single step past
 * `mini_single_cmd_timeout` is `PROOF FAIL : Timeout`; Isabelle's parsers say `Outer syntax error`,
 * `Inner syntax error`, `Inner lexical error` or `Bad Command`.
 */
export function minilangError(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  const failure = /^(PROOF FAIL|INVALID_OPR) : (.*)$/s.exec(text);
  const body = failure ? (failure[2] as string).trim() : text;
  if (/^Timeout\b/i.test(body) || /\btimeout after\b/i.test(body) || /^Interrupt$/.test(body)) return 'timeout';
  if (/^(Outer|Inner) (syntax|lexical) error|^Bad Command\b/i.test(body)) return `parse error: ${clip(body)}`;
  if (failure) return body === '' ? 'fail' : `fail: ${clip(body)}`;
  return clip(body);
}

function clip(text: string, max = 400): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
