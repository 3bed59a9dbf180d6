import type { Context } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';

/** Approximate advance of the monospace font used in the tree (12px), so Node and browser agree on sizes. */
export const CHAR_WIDTH = 7.2;
export const CHIP_CHAR_WIDTH = 6.6;
export const HEADER_HEIGHT = 24;
export const CHIP_HEIGHT = 16;
export const CHIP_GAP = 4;
export const PADDING = 6;
export const MIN_WIDTH = 96;
export const MAX_WIDTH = 340;
export const MAX_CHIP_ROWS = 3;
/** The derivation view's footer line: the command that acted on the goal. */
export const ACTION_HEIGHT = 16;
/** Each further line of a wrapped goal (the current goal's text is never clipped short). */
export const LABEL_LINE_HEIGHT = 15;
/** The current goal wraps over at most this many lines (a longer one ends in `…`). */
export const MAX_GOAL_LINES = 8;
const MAX_LABEL_CHARS = Math.floor((MAX_WIDTH - 2 * PADDING - 14) / CHAR_WIDTH);
const MAX_CHIP_CHARS = 30;

/** One line a node shows: the goal of a leaf, the number of goals of a bundle. */
export function nodeLabel(view: TreeView): string {
  if (view.summary) return `⋯ ${view.summary.steps} closed step${view.summary.steps === 1 ? '' : 's'}`;
  if (view.kind === 'bundle') {
    const n = view.children?.length ?? 0;
    return n === 0 ? '∎ proof complete' : `⋀ ${n} goal${n === 1 ? '' : 's'}`;
  }
  return view.status === 'proved' ? `✓ ${view.goal ?? ''}` : view.goal ?? '';
}

/** A context entry as a chip: `x : nat`, `IH : P x`. */
export function contextChips(ctxt: Context): string[] {
  return [
    ...ctxt.vars.map((v) => `${v.name} : ${v.type}`),
    ...ctxt.hyps.map((h) => `${h.name} : ${h.expr}`),
  ];
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface NodeContent {
  label: string;
  /** The label's further lines (the current goal wraps instead of being clipped). */
  more: string[];
  /** The derivation view's `by …` line, clipped to the node's width. */
  action?: string;
  /** Footer lines under the action: what the command used, a collapsed branch's summary, a failure's explanation. */
  lines: { kind: 'uses' | 'hidden' | 'note'; text: string }[];
  /** Chip rows as laid out inside the node (already clipped; the last row may end in `+k`). */
  chipRows: string[][];
}

/** What the layout knows of a node beyond its view: a collapsed branch below it, a note on the current goal. */
export interface NodeExtras {
  /** Goals hidden below a collapsed node, and whether all of them are closed. */
  hidden?: { goals: number; allClosed: boolean };
  /** A failure's explanation on the current goal (e.g. the counterexample that makes it false). */
  note?: string;
}

/** The current goal's text in lines of at most `width` characters, broken at blanks where possible. */
export function wrapGoal(text: string, width = MAX_LABEL_CHARS, maxLines = MAX_GOAL_LINES): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width && lines.length < maxLines - 1) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut < width / 2) cut = width;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  lines.push(clip(rest, width));
  return lines;
}

/** How many lines a node's label takes: one, or the current goal's wrapped text. */
function labelLineCount(view: TreeView): number {
  if (view.current !== 'goal' || view.kind !== 'leaf') return 1;
  const chars = (view.goal?.length ?? 0) + (view.status === 'proved' ? 2 : 0);
  return chars <= MAX_LABEL_CHARS ? 1 : wrapGoal(nodeLabel(view)).length;
}

/** Height of the footer lines `extras` add (the layout adds it to `nodeSize`). */
export function extrasHeight(extras: NodeExtras): number {
  return (extras.hidden ? ACTION_HEIGHT : 0) + (extras.note ? ACTION_HEIGHT : 0);
}

const chipWidthOf = (chars: number): number => Math.min(chars, MAX_CHIP_CHARS) * CHIP_CHAR_WIDTH + 10;

/**
 * A node's box size from text lengths only (no strings built): the layout of 50,000 nodes must be fast,
 * and only the few nodes on screen ever need their text (`nodeContent`).
 */
export function nodeSize(view: TreeView): { w: number; h: number } {
  const n = view.children?.length ?? 0;
  const labelChars = Math.min(MAX_LABEL_CHARS, view.kind === 'bundle' ? (n === 0 ? 16 : 10 + String(n).length) : (view.goal?.length ?? 0) + (view.status === 'proved' ? 2 : 0));
  let widest = 0;
  const { vars, hyps } = view.ctxt;
  for (let i = 0; i < vars.length; i++) widest = Math.max(widest, chipWidthOf((vars[i] as { name: string }).name.length + 3 + (vars[i] as { type: string }).type.length));
  for (let i = 0; i < hyps.length; i++) widest = Math.max(widest, chipWidthOf((hyps[i] as { name: string }).name.length + 3 + (hyps[i] as { expr: string }).expr.length));
  const actionText = view.summary ? view.summary.commands.join(' · ') : view.action;
  const actionWidth = actionText === undefined ? 0 : (actionText.length + 3) * CHIP_CHAR_WIDTH + 2 * PADDING;
  const lines = labelLineCount(view);
  const w = lines > 1 ? MAX_WIDTH : Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, labelChars * CHAR_WIDTH + 2 * PADDING + 14, Math.min(widest + 2 * PADDING, 220), actionWidth));
  // Count chip rows the way `nodeContent` wraps them.
  const inner = w - 2 * PADDING;
  let rows = 0, used = 0, inRow = 0;
  const place = (chars: number): boolean => {
    const cw = chipWidthOf(chars);
    if (inRow > 0 && used + cw > inner) {
      rows++;
      used = 0;
      inRow = 0;
      if (rows === MAX_CHIP_ROWS) return false;
    }
    used += cw + CHIP_GAP;
    inRow++;
    return true;
  };
  let go = true;
  for (let i = 0; go && i < vars.length; i++) go = place((vars[i] as { name: string }).name.length + 3 + (vars[i] as { type: string }).type.length);
  for (let i = 0; go && i < hyps.length; i++) go = place((hyps[i] as { name: string }).name.length + 3 + (hyps[i] as { expr: string }).expr.length);
  if (go && inRow > 0) rows++;
  const footer = (actionText === undefined ? 0 : ACTION_HEIGHT) + (view.uses?.length ? ACTION_HEIGHT : 0);
  return { w, h: HEADER_HEIGHT + (lines - 1) * LABEL_LINE_HEIGHT + (rows > 0 ? rows * (CHIP_HEIGHT + CHIP_GAP) + PADDING - CHIP_GAP : 0) + footer };
}

/** The text a node shows, wrapped to its width `w` exactly as `nodeSize` counted it. */
export function nodeContent(view: TreeView, w: number, extras: NodeExtras = {}): NodeContent {
  const wrapped = labelLineCount(view) > 1 ? wrapGoal(nodeLabel(view)) : [clip(nodeLabel(view), MAX_LABEL_CHARS)];
  const [label = '', ...more] = wrapped;
  const chips = contextChips(view.ctxt).map((c) => clip(c, MAX_CHIP_CHARS));
  const rows: string[][] = [];
  let row: string[] = [];
  let used = 0;
  const inner = w - 2 * PADDING;
  for (let i = 0; i < chips.length; i++) {
    const c = chips[i] as string;
    const cw = chipWidthOf(c.length);
    if (row.length > 0 && used + cw > inner) {
      rows.push(row);
      row = [];
      used = 0;
      if (rows.length === MAX_CHIP_ROWS) {
        (rows[rows.length - 1] as string[]).push(`+${chips.length - i}`);
        break;
      }
    }
    row.push(c);
    used += cw + CHIP_GAP;
  }
  if (row.length > 0 && rows.length < MAX_CHIP_ROWS) rows.push(row);
  const fit = (t: string): string => clip(t, Math.floor((w - 2 * PADDING) / CHIP_CHAR_WIDTH));
  const lines: NodeContent['lines'] = [];
  if (view.uses?.length) lines.push({ kind: 'uses', text: fit(`uses ${view.uses.join(', ')}`) });
  if (extras.hidden) {
    const { goals, allClosed } = extras.hidden;
    lines.push({ kind: 'hidden', text: fit(`▸ ${goals} goal${goals === 1 ? '' : 's'} below${allClosed ? ', all closed' : ''} (double-click)`) });
  }
  if (extras.note) lines.push({ kind: 'note', text: fit(extras.note) });
  const content: NodeContent = { label, more, chipRows: rows, lines };
  if (view.summary) content.action = fit(view.summary.commands.join(' · '));
  else if (view.action !== undefined) content.action = fit(`by ${view.action}`);
  return content;
}

/** Footer colours, shared by the canvas and the SVG export. */
export const FOOTER_STYLE: Readonly<Record<'action' | 'uses' | 'hidden' | 'note', { color: string; italic: boolean }>> = {
  action: { color: '#4a4f5c', italic: true },
  uses: { color: '#b3541e', italic: false },
  hidden: { color: '#3d5a8a', italic: false },
  note: { color: '#b02a2a', italic: false },
};

/** Where a node's text goes, relative to its box's top: label lines, then chips, then footer lines from the bottom up. */
export function nodeTextLayout(content: NodeContent, h: number): {
  labels: { text: string; y: number }[];
  chipsTop: number;
  footer: { kind: keyof typeof FOOTER_STYLE; text: string; y: number }[];
} {
  const labels = [content.label, ...content.more].map((text, i) => ({ text, y: HEADER_HEIGHT / 2 + 1 + i * LABEL_LINE_HEIGHT }));
  const items: { kind: keyof typeof FOOTER_STYLE; text: string }[] = [
    ...(content.action !== undefined ? [{ kind: 'action' as const, text: content.action }] : []),
    ...content.lines,
  ];
  const top = h - items.length * ACTION_HEIGHT;
  return {
    labels,
    chipsTop: HEADER_HEIGHT + content.more.length * LABEL_LINE_HEIGHT,
    footer: items.map((it, i) => ({ ...it, y: top + i * ACTION_HEIGHT })),
  };
}
