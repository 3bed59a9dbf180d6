import type { ContextEntry } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { accumulatedContext, currentGoalNode } from '../proof-tree/tree-view-queries.ts';
import { diffText } from './text-diff.ts';
import type { TextPart } from './text-diff.ts';


export interface ContextDiff {
  added: ContextEntry[];
  removed: ContextEntry[];
  changed: { kind: ContextEntry['kind']; name: string; before: string; after: string }[];
}

/** Context entries matched by kind and name: new names are added, vanished ones removed, others changed. */
export function diffContexts(before: readonly ContextEntry[], after: readonly ContextEntry[]): ContextDiff {
  const key = (e: ContextEntry): string => `${e.kind}:${e.name}`;
  const old = new Map(before.map((e) => [key(e), e]));
  const now = new Map(after.map((e) => [key(e), e]));
  const diff: ContextDiff = { added: [], removed: [], changed: [] };
  for (const e of after) {
    const o = old.get(key(e));
    if (!o) diff.added.push(e);
    else if (o.text !== e.text) diff.changed.push({ kind: e.kind, name: e.name, before: o.text, after: e.text });
  }
  for (const e of before) if (!now.has(key(e))) diff.removed.push(e);
  return diff;
}

/**
 * Whether a word diff would be noise: when little of the text stayed (a whole goal rewritten), interleaved
 * deletions and insertions read as nonsense, and the old and new texts are better shown one above the other.
 */
export function mostlyChanged(parts: readonly TextPart[]): boolean {
  const significant = (p: TextPart): number => p.text.replace(/\s+/g, '').length;
  const same = parts.filter((p) => p.kind === 'same').reduce((n, p) => n + significant(p), 0);
  const total = parts.reduce((n, p) => n + significant(p), 0);
  return total > 0 && same / total < 0.4 && parts.some((p) => p.kind !== 'same');
}

/** The text before (removed and same parts) and after (added and same parts) a diff. */
export function sidesOf(parts: readonly TextPart[]): { before: string; after: string } {
  return {
    before: parts.filter((p) => p.kind !== 'added').map((p) => p.text).join(''),
    after: parts.filter((p) => p.kind !== 'removed').map((p) => p.text).join(''),
  };
}

export interface GoalChange {
  /** The new goal's node id. */
  id: number;
  context: ContextDiff;
  goal: TextPart[];
}

export interface StepDiff {
  /** The goal the step acted on (the previous current goal). */
  actedOn?: { id: number; goal: string };
  /** The goals the step produced from it (empty: it was proved or removed). */
  produced: GoalChange[];
  /** The step removed the goal it acted on (END/NEXT) or proved it. */
  closed: boolean;
}

/** The inspector shows this many of a step's new goals at most (a split into 5,000 goals shows the first ones). */
const MAX_PRODUCED = 50;

/** What the last step changed: the previous current goal against every goal the new step created. */
export function stepDiff(before: TreeView | null | undefined, after: TreeView | null | undefined, step: number): StepDiff {
  const prev = before ? currentGoalNode(before) : undefined;
  if (!after) return { produced: [], closed: false };
  const prevCtx = before && prev ? accumulatedContext(before, prev.id) : [];
  const produced: GoalChange[] = [];
  const visit = (node: TreeView): void => {
    if (produced.length >= MAX_PRODUCED) return;
    if (node.kind === 'leaf' && node.step === step && node.status === 'open') {
      produced.push({ id: node.id, context: diffContexts(prevCtx, accumulatedContext(after, node.id)), goal: diffText(prev?.goal ?? '', node.goal ?? '') });
    }
    for (const c of node.children ?? []) visit(c);
  };
  visit(after);
  const diff: StepDiff = { produced, closed: produced.length === 0 };
  if (prev) diff.actedOn = { id: prev.id, goal: prev.goal ?? '' };
  return diff;
}
