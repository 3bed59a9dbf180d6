import { derivationOpenGoals } from '../../shared/derivation/derivation-open-goals.ts';
import type { VFileTheoremReport } from '../../shared/derivation/v-file-derivation.ts';
import type { GoalsAtCursor } from './goals-at-cursor.ts';
import { selectGoalsAtCursor } from './goals-at-cursor.ts';
import type { ArborState } from './store.ts';

/**
 * In `.v` mode, the goals before and after the tactic at the step-through's cursor, read from the derivation
 * the engine recorded for each step (no prover round trip, nothing rebuilt from text). Step 0 is the
 * theorem's statement: its goal, with nothing before.
 */
const NONE: GoalsAtCursor = { kind: 'none' };

export function vFileGoalsAt(t: VFileTheoremReport, step: number | null): GoalsAtCursor {
  const last = t.steps.length - 1;
  if (last < 0) return NONE;
  const at = step === null ? last : Math.max(0, Math.min(step, last));
  const here = t.steps[at]!;
  const entry = { line: here.line || t.line, text: at === 0 ? t.opener : here.command, stepBefore: 0, stepAfter: 0 };
  const after = derivationOpenGoals(here.tree);
  // `admit` leaves no goals, yet the proof is not done: an empty state must not read as "complete".
  const notProved = t.ending === 'Qed' || t.ending === 'Defined' ? undefined
    : `no open goals here, but the proof ends with ${t.ending === 'open' ? 'no Qed' : t.ending}: it is not proved`;
  const extra = notProved ? { notProved } : {};
  if (at === 0) return { kind: 'between', line: entry.line, entry, after, ...extra };
  return { kind: 'checked', line: entry.line, entry, before: derivationOpenGoals(t.steps[at - 1]!.tree), after, ...extra };
}

let memo: { t: VFileTheoremReport; step: number | null; value: GoalsAtCursor } | undefined;

/** What the Goals panel shows: the `.v` file's step when its derivation is on display, else the editor's cursor. */
export const selectPanelGoals = (s: ArborState): GoalsAtCursor => {
  if (s.ui.treeSource !== 'vfile') return selectGoalsAtCursor(s);
  const t = s.vfile.report?.theorems[s.vfile.theorem];
  if (!t) return NONE;
  if (memo && memo.t === t && memo.step === s.vfile.step) return memo.value;
  memo = { t, step: s.vfile.step, value: vFileGoalsAt(t, s.vfile.step) };
  return memo.value;
};

/** The theorem and step a click on line `line` of the `.v` source means: the last step at or above it. */
export function vFileStepAtLine(theorems: readonly VFileTheoremReport[], line: number): { theorem: number; step: number | null } | undefined {
  const theorem = theorems.findIndex((t) => line >= t.line && line <= t.endLine);
  const t = theorems[theorem];
  if (!t) return undefined;
  let step = 0;
  t.steps.forEach((st, i) => { if (i > 0 && st.line > 0 && st.line <= line) step = i; });
  return { theorem, step: step === t.steps.length - 1 ? null : step };
}
