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

/** One line of a case file: the case it holds, or why it holds none (`line` is 1-based in the file). */
export type CaseLine = { line: number; case: FidelityCase } | { line: number; error: string };

/**
 * Parse a case set line by line: TSV with a header naming at least `id`, `canonical`, `candidate` (optional
 * `context`, `truth`; other columns kept as extras), or JSON lines with those keys. Lines starting with `#`
 * and blank lines are skipped. A bad line yields an error for that line only, so a batch can report it and go
 * on; a header without the required columns is an error of the whole file (thrown).
 */
export function parseCaseLines(text: string): CaseLine[] {
  const lines = text.split(/\r?\n/u).map((l, i) => ({ text: l, line: i + 1 })).filter((l) => l.text.trim() !== '' && !l.text.startsWith('#'));
  const first = lines[0];
  if (first === undefined) return [];
  if (first.text.trimStart().startsWith('{')) {
    return lines.map(({ text: l, line }): CaseLine => {
      let json: unknown;
      try {
        json = JSON.parse(l);
      } catch {
        return { line, error: `case line ${line}: not a JSON object` };
      }
      const r = jsonCase.safeParse(json);
      if (!r.success) return { line, error: `case line ${line}: ${r.error.issues[0]?.path.join('.') || 'case'}: ${r.error.issues[0]?.message ?? 'invalid'}` };
      const { id, canonical, candidate, context, truth, ...rest } = r.data;
      const extra = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
      return { line, case: { id, canonical, candidate, ...(context ? { context } : {}), ...(truth ? { truth } : {}), extra } };
    });
  }
  const header = first.text.split('\t').map((h) => h.trim().toLowerCase());
  for (const need of ['id', 'canonical', 'candidate']) {
    if (!header.includes(need)) throw new Error(`case file header lacks column '${need}'`);
  }
  return lines.slice(1).map(({ text: l, line }, i): CaseLine => {
    const cells = l.split('\t').map(unescapeTsv);
    const row: Record<string, string> = {};
    header.forEach((h, k) => { row[h] = (cells[k] ?? '').trim(); });
    const { id = '', canonical = '', candidate = '', context = '', truth = '', ...extra } = row;
    if (!canonical || !candidate) return { line, error: `case row ${i + 2}: canonical and candidate are required` };
    if (truth && !(verdicts as readonly string[]).includes(truth)) return { line, error: `case row ${i + 2}: unknown truth '${truth}'` };
    return { line, case: { id: id || String(i + 1), canonical, candidate, ...(context ? { context } : {}), ...(truth ? { truth: truth as Verdict } : {}), extra } };
  });
}

/** A whole case set, or the first bad line as an error (the single-run CLI and the bench want all or nothing). */
export function parseCases(text: string): FidelityCase[] {
  return parseCaseLines(text).map((l) => {
    if ('error' in l) throw new Error(l.error);
    return l.case;
  });
}
