import { z } from 'zod';
import { verdicts } from './fidelity-types.ts';
import type { Verdict } from './fidelity-types.ts';

/** One row of a case set. `truth` (ground truth) is optional for the CLI and required by the bench. */
export interface FidelityCase {
  id: string;
  canonical: string;
  candidate: string;
  context?: string;
  truth?: Verdict;
  /** Free-form extra columns (category, notes, …), kept for reports. */
  extra: Record<string, string>;
}

const jsonCase = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  canonical: z.string().min(1),
  candidate: z.string().min(1),
  context: z.string().optional(),
  truth: z.enum(verdicts).optional(),
}).passthrough();

/** TSV fields may carry `\t`, `\n` and `\\` escapes (a context is often several sentences). */
export const unescapeTsv = (s: string): string => s.replace(/\\([tn\\])/gu, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'));

/**
 * Parse a case set: TSV with a header naming at least `id`, `canonical`, `candidate` (optional `context`,
 * `truth`; other columns kept as extras), or JSON lines with those keys. Lines starting with `#` are comments.
 */
export function parseCases(text: string): FidelityCase[] {
  const lines = text.split(/\r?\n/u).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  if (lines.length === 0) return [];
  if ((lines[0] as string).trimStart().startsWith('{')) {
    return lines.map((l, i) => {
      const r = jsonCase.safeParse(JSON.parse(l));
      if (!r.success) throw new Error(`case line ${i + 1}: ${r.error.issues[0]?.message ?? 'invalid'}`);
      const { id, canonical, candidate, context, truth, ...rest } = r.data;
      const extra = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
      return { id, canonical, candidate, ...(context ? { context } : {}), ...(truth ? { truth } : {}), extra };
    });
  }
  const header = (lines[0] as string).split('\t').map((h) => h.trim().toLowerCase());
  for (const need of ['id', 'canonical', 'candidate']) {
    if (!header.includes(need)) throw new Error(`case file header lacks column '${need}'`);
  }
  return lines.slice(1).map((line, i) => {
    const cells = line.split('\t').map(unescapeTsv);
    const row: Record<string, string> = {};
    header.forEach((h, k) => { row[h] = (cells[k] ?? '').trim(); });
    const { id = '', canonical = '', candidate = '', context = '', truth = '', ...extra } = row;
    if (!canonical || !candidate) throw new Error(`case row ${i + 2}: canonical and candidate are required`);
    if (truth && !(verdicts as readonly string[]).includes(truth)) throw new Error(`case row ${i + 2}: unknown truth '${truth}'`);
    return { id: id || String(i + 1), canonical, candidate, ...(context ? { context } : {}), ...(truth ? { truth: truth as Verdict } : {}), extra };
  });
}
