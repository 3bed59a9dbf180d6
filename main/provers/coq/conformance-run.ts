import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import { itemLines, type ConvertedItem } from './v-to-document.ts';

/** What became of one item of a converted `.v` file in Arbor. */
export interface ItemOutcome {
  line: number;
  kind: ConvertedItem['kind'];
  name?: string;
  /** proved by its reference proof; declared; skipped (changes nothing); refused (with Arbor's or Coq's reason). */
  result: 'proved' | 'declared' | 'skipped' | 'refused';
  reason?: string;
  /** What the finished statement means, when that differs from its clean reading (the END's STATEMENT). */
  statement?: StatementMeaning;
}

const PROVED_LEAF = /^no goal: the current goal is proved/;

/**
 * Runs a converted `.v` file through a shell (any `request` function: an `arbor-shell` process, an in-process
 * shell) item by item: DEFINE, GOAL, the reference proof as APPLY lines — with a NEXT wherever a tactic closed
 * a goal that was not the last, as Arbor's derivation wants — and END. A proof counts only when its own
 * tactics closed every goal: an END that had to HAMMER is reported as not going through.
 */
export async function runConverted(items: readonly ConvertedItem[], request: (line: string) => Promise<ShellResponse>): Promise<ItemOutcome[]> {
  const out: ItemOutcome[] = [];
  for (const item of items) {
    const base = { line: item.line, kind: item.kind, ...(item.kind === 'proof' && item.name !== undefined ? { name: item.name } : {}) };
    if (item.kind === 'skipped') {
      out.push({ ...base, result: 'skipped', reason: item.reason });
      continue;
    }
    const [first = '', ...rest] = itemLines(item);
    const head = await request(first);
    if (head.ERR !== '') {
      out.push({ ...base, result: 'refused', reason: `${first.split(' ')[0] ?? ''}: ${head.ERR}` });
      continue;
    }
    if (item.kind === 'define') {
      out.push({ ...base, result: 'declared' });
      continue;
    }
    const done = await proofSteps(rest, request);
    if (typeof done === 'string') out.push({ ...base, result: 'refused', reason: done });
    else out.push({ ...base, result: 'proved', ...(done.STATEMENT ? { statement: done.STATEMENT } : {}) });
  }
  return out;
}

/** The APPLY lines then END until the proof is finished: the finishing END's response, or why it did not finish. */
async function proofSteps(lines: string[], request: (line: string) => Promise<ShellResponse>): Promise<string | ShellResponse> {
  const applies = lines.filter((l) => l !== 'END');
  for (const line of applies) {
    let r = await request(line);
    while (PROVED_LEAF.test(r.ERR)) {
      const next = await request('NEXT');
      if (next.ERR !== '') return `NEXT: ${next.ERR}`;
      r = await request(line);
    }
    if (r.ERR !== '') return `${line}: ${r.ERR}`;
  }
  for (let i = 0; i <= applies.length + 1; i++) {
    const end = await request('END');
    if (end.ERR !== '') return `END: ${end.ERR}`;
    if (end.HAMMER_REPORT !== undefined) return 'END: the reference proof left a goal open (Arbor had to HAMMER it)';
    if (end.SCRIPT !== undefined) return end;
  }
  return 'END: the proof did not finish';
}
