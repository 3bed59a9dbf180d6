/**
 * Stable reason codes for MCP tool errors. The text of every failed tool call starts with one of them,
 * so an agent (or a test) can branch on the reason without parsing prover messages.
 */
export type ToolReason = 'no_goal' | 'bad_argument' | 'prover_error' | 'parse_error' | 'timeout' | 'injection';

export class ToolError extends Error {
  readonly reason: ToolReason;
  constructor(reason: ToolReason, message: string) {
    super(message);
    this.name = 'ToolError';
    this.reason = reason;
  }

  /** What the agent reads: `reason: message`. */
  get text(): string {
    return `${this.reason}: ${this.message}`;
  }
}

/** Maps a shell `ERR` string (BRIEF §3's stable errors) to a reason code. */
export function reasonForShellError(err: string): ToolReason {
  if (/^no goal\b/.test(err)) return 'no_goal';
  if (/^timeout\b/.test(err)) return 'timeout';
  if (/^(parse error|unknown command)\b/.test(err)) return 'parse_error';
  return 'prover_error';
}

/** A shell error as a tool error (the shell's own text is kept after the code). */
export function shellToolError(err: string, context?: string): ToolError {
  return new ToolError(reasonForShellError(err), context ? `${context}: ${err}` : err);
}
