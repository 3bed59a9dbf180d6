import type { CheckedLine } from '../../shared/checking/checked-lines.ts';
import type { DocumentCheck } from '../../shared/checking/document-check.ts';
import { lastGoalOf } from '../../shared/protocol/goal-name.ts';
import type { HammerReport } from '../../shared/protocol/hammer-report.ts';
import type { SectionPremise } from '../../shared/protocol/section-premises.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { isFinishedView } from '../../shared/proof-tree/tree-view-queries.ts';
import type { ArborState } from './store.ts';

/**
 * The problems list of a document, derived from its checking state (never appended to): the failing line
 * with its error — gone as soon as the host drops it (its line edited, or checked past) — and one
 * "proved" line per finished item. So it tracks the text and never holds two copies of one error.
 */
export type Problem =
  | { kind: 'error'; line: number; message: string; hammer?: HammerReport }
  /** `premises`: proved inside an open section, under its hypotheses (a conditional result, said so in words). */
  | { kind: 'proved'; line: number; name: string; premises?: SectionPremise[] };

export function problemsOf(
  check: DocumentCheck, tree: (step: number) => TreeView | null | undefined, hammer?: { error: string; report: HammerReport },
  premises?: Record<number, SectionPremise[]>,
): Problem[] {
  const out: Problem[] = [];
  let goal: { line: CheckedLine; name?: string } | undefined;
  for (const e of check.entries) {
    // Any GOAL request of the line (after a `;` too) starts the item; its last one is the proof left open.
    const started = lastGoalOf(e.text);
    if (started) goal = { line: e, ...started };
    if (!goal || e.stepAfter === e.stepBefore) continue;
    const after = tree(e.stepAfter);
    if (after && isFinishedView(after)) {
      const name = goal.name ?? `the GOAL of line ${goal.line.line}`;
      const under = premises?.[e.stepAfter];
      out.push({ kind: 'proved', line: e.line, name, ...(under?.length ? { premises: under } : {}) });
      goal = undefined;
    }
  }
  if (check.error) {
    const report = hammer && hammer.error === check.error.message ? hammer.report : undefined;
    out.push({ kind: 'error', line: check.error.line, message: check.error.message, ...(report ? { hammer: report } : {}) });
  }
  return out;
}

let memo: { check: DocumentCheck; trees: unknown; hammer: unknown; premises: unknown; value: Problem[] } | undefined;
const NONE: Problem[] = [];

/** The active document's problems, errors first (memoised on what it reads). */
export const selectActiveProblems = (s: ArborState): Problem[] => {
  const uri = s.documents.activeUri;
  const check = uri ? s.checking[uri] : undefined;
  if (!uri || !check) return NONE;
  const channel = s.documents.docs[uri]?.channel;
  const trees = channel === undefined ? undefined : s.proof.trees[channel];
  const hammer = channel === undefined ? undefined : s.problems.hammer[channel];
  const premises = channel === undefined ? undefined : s.problems.premises?.[channel];
  if (memo && memo.check === check && memo.trees === trees && memo.hammer === hammer && memo.premises === premises) return memo.value;
  const list = problemsOf(check, (step) => trees?.byStep[step], hammer, premises);
  const value = [...list.filter((p) => p.kind === 'error'), ...list.filter((p) => p.kind === 'proved')];
  memo = { check, trees, hammer, premises, value };
  return value;
};
