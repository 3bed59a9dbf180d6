import { z } from 'zod';
import type { ShellResponse } from '../protocol/shell-command.ts';
import { HAMMER_OUTCOMES, HAMMER_STAGES } from '../protocol/hammer-report.ts';

/**
 * A `--transcript` JSON-lines file (written by `arbor-shell`): `{"time","channel","request"}` and
 * `{"time","response":{CHANNEL,RESPONSE,ERR,STEP?,SCRIPT?,PREMISES?,CONDITIONAL?,…}}` lines. Parsed leniently: a bad line is
 * reported and skipped, so a truncated file still steps through.
 */
export type TranscriptEntry =
  | { kind: 'request'; time: number; channel: number; text: string }
  | { kind: 'response'; time: number; response: ShellResponse };

const requestLine = z.object({ time: z.number(), channel: z.number().int().min(0), request: z.string() });
const responseLine = z.object({
  time: z.number(),
  response: z.object({
    CHANNEL: z.number(), RESPONSE: z.unknown(), ERR: z.string(), STEP: z.number().optional(), SCRIPT: z.string().optional(),
    ASSUMPTIONS: z.array(z.string()).optional(),
    // A proof under a section's hypotheses (section-premises.ts): kept, so a replay never shows it as plainly
    // proved. A premise list this reader cannot read is dropped; its words (CONDITIONAL) still say it.
    PREMISES: z.array(z.object({ kind: z.enum(['hypothesis', 'variable']), name: z.string(), statement: z.string() })).optional().catch(undefined),
    CONDITIONAL: z.string().optional().catch(undefined),
    // A report this reader does not know (a newer stage) is dropped, never the response with it.
    HAMMER_REPORT: z.object({
      closedWith: z.string().optional(),
      stages: z.array(z.object({ stage: z.enum(HAMMER_STAGES), tactic: z.string().optional(), ms: z.number(), outcome: z.enum(HAMMER_OUTCOMES), detail: z.string().optional() })),
      ms: z.number(),
      discovered: z.array(z.object({ name: z.string(), statement: z.string(), proof: z.string(), used: z.boolean() })).optional(),
    }).optional().catch(undefined),
  }),
});

export interface ParsedTranscript {
  entries: TranscriptEntry[];
  problems: { line: number; message: string }[];
}

export function parseTranscript(text: string): ParsedTranscript {
  const entries: TranscriptEntry[] = [];
  const problems: ParsedTranscript['problems'] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      problems.push({ line: i + 1, message: 'not JSON' });
      return;
    }
    const req = requestLine.safeParse(json);
    if (req.success) {
      entries.push({ kind: 'request', time: req.data.time, channel: req.data.channel, text: req.data.request });
      return;
    }
    const res = responseLine.safeParse(json);
    if (res.success) {
      const r = res.data.response;
      const response: ShellResponse = { CHANNEL: r.CHANNEL, RESPONSE: r.RESPONSE, ERR: r.ERR };
      if (r.STEP !== undefined) response.STEP = r.STEP;
      if (r.SCRIPT !== undefined) response.SCRIPT = r.SCRIPT;
      if (r.ASSUMPTIONS !== undefined) response.ASSUMPTIONS = r.ASSUMPTIONS;
      if (r.PREMISES !== undefined) response.PREMISES = r.PREMISES;
      if (r.CONDITIONAL !== undefined) response.CONDITIONAL = r.CONDITIONAL;
      if (r.HAMMER_REPORT !== undefined) {
        const { closedWith, stages, ms, discovered } = r.HAMMER_REPORT;
        response.HAMMER_REPORT = {
          stages: stages.map((s) => ({ stage: s.stage, ms: s.ms, outcome: s.outcome, ...(s.tactic !== undefined ? { tactic: s.tactic } : {}), ...(s.detail !== undefined ? { detail: s.detail } : {}) })),
          ms, ...(closedWith !== undefined ? { closedWith } : {}), ...(discovered !== undefined ? { discovered } : {}),
        };
      }
      entries.push({ kind: 'response', time: res.data.time, response });
      return;
    }
    problems.push({ line: i + 1, message: 'neither a request nor a response' });
  });
  return { entries, problems };
}
