import type { Context } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { displayWidth, indexAtColumns } from './display-width.ts';

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
/** A wrapped chip's continuation rows are indented by this many characters. */
export const CHIP_INDENT_CHARS = 2;
/** A compact derivation box's title (the new goal or hypothesis) wraps over at most this many lines. */
export const MAX_TITLE_LINES = 4;
/** A compact box's `by …` line wraps over at most this many lines. */
export const MAX_ACTION_LINES = 3;
/** Characters of a chip (or action line) that fit in a compact box at its widest. */
const INNER_CHIP_CHARS = Math.floor((MAX_WIDTH - 2 * PADDING - 10) / CHIP_CHAR_WIDTH);

/**
 * What a compact derivation box is titled by: what is new at that node. The goal when it differs from the
 * parent's (or at the root); else the first hypothesis that enters there (`hyp`, not repeated as a chip),
 * since the conclusion did not change (`HAVE Em …` leaves `False` as it was, and adds `Em`).
 */
export interface NodeTitle {
  kind: 'goal' | 'hyp' | 'case';
  text: string;
  /** The hypothesis (or variable) shown as the title. */
  hyp?: string;
  /** A case's hypotheses that only underwent the case's substitution: not new, not shown again. */
  same?: string[];
}

/**
 * The title of a compact derivation box, given its parent's goal (undefined at the root) and the parent's
 * whole context (to tell a case's merely substituted hypotheses from new ones).
 */
export function nodeTitle(view: TreeView, parentGoal: string | undefined, parentScope?: Context): NodeTitle {
  const goal = view.goal ?? '';
  if (view.attempt && !view.attempt.inside) {
    return { kind: 'goal', text: view.attempt.kind === 'failed' ? `✗ ${view.action ?? ''}` : `↶ reverted: ${view.action ?? ''}` };
  }
  const first = view.ctxt.hyps[0] ?? undefined;
  const firstVar = view.ctxt.vars[0] ?? undefined;
  if (!view.summary && view.kind === 'leaf' && parentGoal !== undefined && goal === parentGoal && (first || firstVar)) {
    // Hypotheses say more than variables (`Em : Nat.Even m` rather than `k : nat`).
    if (first) return { kind: 'hyp', text: `${first.name} : ${first.expr}`, hyp: first.name };
    if (firstVar) return { kind: 'hyp', text: `${firstVar.name} : ${firstVar.type}`, hyp: firstVar.name };
  }
  if (!view.summary && view.kind === 'leaf' && parentGoal !== undefined) {
    // A case of `destruct a`: the goal is the parent's with `a` replaced; the case says more than the goal.
    const sub = substitution(parentGoal, goal);
    if (sub) {
      const before = new Map((parentScope?.hyps ?? []).map((h) => [h.name, h.expr]));
      const same = view.ctxt.hyps.filter((h) => {
        const was = before.get(h.name);
        const s2 = was === undefined ? undefined : substitution(was, h.expr);
        return s2 !== undefined && s2.name === sub.name && s2.by === sub.by;
      }).map((h) => h.name);
      return { kind: 'case', text: `${sub.name} := ${sub.by}`, ...(same.length > 0 ? { same } : {}) };
    }
  }
  return { kind: 'goal', text: nodeLabel(view) };
}

const tokens = (text: string): string[] => text.match(/[A-Za-z_][A-Za-z0-9_'.]*|[0-9]+|\S/g) ?? [];

/**
 * Whether `after` is `before` with every occurrence of one name replaced by the same few tokens (as a
 * case split on a variable does: `negb (a && b)` → `negb (true && b)`), and which.
 */
export function substitution(before: string, after: string): { name: string; by: string } | undefined {
  const p = tokens(before), c = tokens(after);
  // A goal replaced whole (a HAVE's `False` → `j < n`) is a new goal, not a case.
  if (p.length < 3) return undefined;
  let i = 0;
  while (i < p.length && i < c.length && p[i] === c[i]) i++;
  const name = p[i];
  if (name === undefined || !/^[A-Za-z_]/.test(name)) return undefined;
  const count = p.filter((t) => t === name).length;
  const extra = c.length - p.length;
  if (extra < 0 || extra % count !== 0) return undefined;
  const by = c.slice(i, i + 1 + extra / count);
  if (by.length > 6 || by.includes(name)) return undefined;
  const rebuilt = p.flatMap((t) => (t === name ? by : [t]));
  if (rebuilt.length !== c.length || rebuilt.some((t, k) => t !== c[k])) return undefined;
  return { name, by: by.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')') };
}

/** Wraps `text` to lines of at most `width` characters (at blanks where possible), at most `maxLines`. */
function wrapText(text: string, width: number, maxLines: number): string[] {
  return wrapGoal(text, width, maxLines);
}

/** A compact box's chips: every entry but the title's, each whole up to the box's width. */
function titledChips(view: TreeView, title: NodeTitle): { chars: number; text: string }[] {
  const out: { chars: number; text: string }[] = [];
  // Coq prints a long type over several lines: a chip's row is one line of text (canvas and SVG ignore newlines).
  const chip = (name: string, text: string): { chars: number; text: string } => {
    const t = `${name} : ${text.replace(/\s+/g, ' ').trim()}`;
    return { chars: displayWidth(t), text: t };
  };
  for (const v of view.ctxt.vars) if (v.name !== title.hyp) out.push(chip(v.name, v.type));
  for (const h of view.ctxt.hyps) if (h.name !== title.hyp && !title.same?.includes(h.name)) out.push(chip(h.name, h.expr));
  return out;
}

const compactActionText = (view: TreeView): string | undefined => view.attempt && !view.attempt.inside ? undefined :
  view.summary ? view.summary.commands.join(' · ') : view.action !== undefined ? `by ${view.action}${usesSuffix(view)}` : undefined;

/** A short `uses` joins the command's line (`by APPLY destruct c · uses c, Ec`): one row less per box. */
const usesSuffix = (view: TreeView): string => {
  const uses = view.uses?.length ? ` · uses ${view.uses.join(', ')}` : '';
  return uses && (view.action ?? '').length + 3 + uses.length <= INNER_CHIP_CHARS ? uses : '';
};

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

/** `text` cut to at most `max` columns (a wide character counts two), with `…` when cut. */
export function clip(text: string, max: number): string {
  return displayWidth(text) > max ? `${text.slice(0, indexAtColumns(text, max - 1))}…` : text;
}

export interface NodeContent {
  label: string;
  /** The label's further lines (the current goal wraps instead of being clipped). */
  more: string[];
  /** The derivation view's `by …` line, clipped to the node's width. */
  action?: string;
  /** Footer lines under the action: what the command used, a collapsed branch's summary, a failure's explanation. */
  lines: { kind: 'action' | 'uses' | 'hidden' | 'note'; text: string }[];
  /** Chip rows as laid out inside the node (already clipped; the last row may end in `+k`). */
  chipRows: string[][];
  /**
   * Rows that continue the previous row's chip (a hypothesis wrapped over several rows): drawn as one chip
   * with the continuation indented (`chip-boxes.ts`), so a wrapped hypothesis never reads as two.
   */
  chipContinues?: boolean[];
  /** A compact derivation box's title: a new goal, or a hypothesis that entered (drawn in the hypothesis colour). */
  titleKind?: 'goal' | 'hyp' | 'case';
}

/** What the layout knows of a node beyond its view: a collapsed branch below it, a note on the current goal. */
export interface NodeExtras {
  /** Goals hidden below a collapsed node, and whether all of them are closed. */
  hidden?: { goals: number; allClosed: boolean };
  /** A failure's explanation on the current goal (e.g. the counterexample that makes it false). */
  note?: string;
}

/** The current goal's text in lines of at most `width` columns, broken at blanks where possible. */
export function wrapGoal(text: string, width = MAX_LABEL_CHARS, maxLines = MAX_GOAL_LINES): string[] {
  const lines: string[] = [];
  let rest = text;
  while (displayWidth(rest) > width && lines.length < maxLines - 1) {
    const fits = Math.max(1, indexAtColumns(rest, width));
    let cut = rest.lastIndexOf(' ', fits);
    if (cut < fits / 2) cut = fits;
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

/** A box with a note or a collapse line is at least this wide (room for the note's text). */
export const EXTRAS_MIN_WIDTH = 230;

/** Height of the footer lines `extras` add (the layout adds it to `nodeSize`). */
export function extrasHeight(extras: NodeExtras): number {
  return (extras.hidden ? ACTION_HEIGHT : 0) + (extras.note ? ACTION_HEIGHT : 0);
}

const chipWidthOf = (chars: number, max = MAX_CHIP_CHARS): number => Math.min(chars, max) * CHIP_CHAR_WIDTH + 10;

/** Title colours of compact derivation boxes: a new hypothesis green (as Paperproof draws hypotheses), a goal dark. */
export const TITLE_COLOR: Readonly<Record<'goal' | 'hyp' | 'case', string>> = { goal: '#1d1d22', hyp: '#1f6b35', case: '#3d5a8a' };

/**
 * A node's box size from text lengths only (no strings built): the layout of 50,000 nodes must be fast,
 * and only the few nodes on screen ever need their text (`nodeContent`).
 */
export function nodeSize(view: TreeView, title?: NodeTitle, extras?: NodeExtras): { w: number; h: number } {
  if (title) return titledNodeSize(view, title, extras);
  const n = view.children?.length ?? 0;
  const labelChars = Math.min(MAX_LABEL_CHARS, view.kind === 'bundle' ? (n === 0 ? 16 : 10 + String(n).length) : (view.goal?.length ?? 0) + (view.status === 'proved' ? 2 : 0));
  let widest = 0;
  const { vars, hyps } = view.ctxt;
  for (let i = 0; i < vars.length; i++) widest = Math.max(widest, chipWidthOf(displayWidth((vars[i] as { name: string }).name) + 3 + displayWidth((vars[i] as { type: string }).type)));
  for (let i = 0; i < hyps.length; i++) widest = Math.max(widest, chipWidthOf(displayWidth((hyps[i] as { name: string }).name) + 3 + displayWidth((hyps[i] as { expr: string }).expr)));
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
  for (let i = 0; go && i < vars.length; i++) go = place(displayWidth((vars[i] as { name: string }).name) + 3 + displayWidth((vars[i] as { type: string }).type));
  for (let i = 0; go && i < hyps.length; i++) go = place(displayWidth((hyps[i] as { name: string }).name) + 3 + displayWidth((hyps[i] as { expr: string }).expr));
  if (go && inRow > 0) rows++;
  const footer = (actionText === undefined ? 0 : ACTION_HEIGHT) + (view.uses?.length ? ACTION_HEIGHT : 0);
  return { w, h: HEADER_HEIGHT + (lines - 1) * LABEL_LINE_HEIGHT + (rows > 0 ? rows * (CHIP_HEIGHT + CHIP_GAP) + PADDING - CHIP_GAP : 0) + footer };
}

/**
 * A compact derivation box: its title (new goal or hypothesis) wrapped whole over up to four lines, every
 * other entering hypothesis as a chip as wide as the box allows (no `+k`), the command wrapped.
 */
function titledNodeSize(view: TreeView, title: NodeTitle, extras?: NodeExtras): { w: number; h: number } {
  const chips = titledChips(view, title);
  const action = compactActionText(view);
  // One character of slack each: the content wraps at whole characters of these widths.
  const widestChip = chips.reduce((m, c) => Math.max(m, Math.min(c.chars + 1, INNER_CHIP_CHARS) * CHIP_CHAR_WIDTH + 10), 0);
  const w = Math.min(MAX_WIDTH, Math.max(
    MIN_WIDTH,
    Math.min(displayWidth(title.text) + 1, MAX_LABEL_CHARS) * CHAR_WIDTH + 2 * PADDING + 14,
    widestChip + 2 * PADDING,
    action === undefined ? 0 : Math.min(action.length + 1, INNER_CHIP_CHARS) * CHIP_CHAR_WIDTH + 2 * PADDING,
    view.attempt?.error ? Math.min(view.attempt.error.length + 1, INNER_CHIP_CHARS) * CHIP_CHAR_WIDTH + 2 * PADDING : 0,
  ));
  // A note or a collapse line widens the box to 230 px and wraps over up to three lines: measured with
  // them, at the box's final width, so the wrapped note never runs over the chips.
  const width = extras ? Math.max(w, EXTRAS_MIN_WIDTH) : w;
  const c = nodeContent(view, width, extras ?? {}, title);
  return { w: width, h: contentHeight(c) };
}

/** Height of a node's content: header, further label lines, chip rows, footer lines. */
function contentHeight(c: NodeContent): number {
  const rows = c.chipRows.length;
  const footer = (c.action !== undefined ? 1 : 0) + c.lines.length;
  return HEADER_HEIGHT + c.more.length * LABEL_LINE_HEIGHT + (rows > 0 ? rows * (CHIP_HEIGHT + CHIP_GAP) + PADDING - CHIP_GAP : 0) + footer * ACTION_HEIGHT;
}

/** The text a node shows, wrapped to its width `w` exactly as `nodeSize` counted it. */
export function nodeContent(view: TreeView, w: number, extras: NodeExtras = {}, title?: NodeTitle): NodeContent {
  if (title) return titledContent(view, w, extras, title);
  const wrapped = labelLineCount(view) > 1 ? wrapGoal(nodeLabel(view)) : [clip(nodeLabel(view), MAX_LABEL_CHARS)];
  const [label = '', ...more] = wrapped;
  const chips = contextChips(view.ctxt).map((c) => clip(c, MAX_CHIP_CHARS));
  const rows: string[][] = [];
  let row: string[] = [];
  let used = 0;
  const inner = w - 2 * PADDING;
  for (let i = 0; i < chips.length; i++) {
    const c = chips[i] as string;
    const cw = chipWidthOf(displayWidth(c));
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

function titledContent(view: TreeView, w: number, extras: NodeExtras, title: NodeTitle): NodeContent {
  const labelChars = Math.max(8, Math.floor((w - 2 * PADDING - 14) / CHAR_WIDTH));
  const [label = '', ...more] = wrapText(title.text, labelChars, MAX_TITLE_LINES);
  const inner = w - 2 * PADDING;
  const chipChars = Math.max(6, Math.floor((inner - 10) / CHIP_CHAR_WIDTH));
  const rows: string[][] = [];
  const continues: boolean[] = [];
  let row: string[] = [];
  let used = 0;
  const endRow = (): void => {
    rows.push(row);
    continues.push(false);
    row = [];
    used = 0;
  };
  for (const c of titledChips(view, title)) {
    // A hypothesis longer than the box goes on as many rows as it needs (up to four), whole: one chip
    // whose continuation rows are indented (the wrap leaves room for the indent).
    const pieces = c.chars > chipChars ? wrapText(c.text, chipChars - CHIP_INDENT_CHARS, 4) : [c.text];
    if (pieces.length > 1) {
      if (row.length > 0) endRow();
      pieces.forEach((text, i) => {
        rows.push([text]);
        continues.push(i > 0);
      });
      continue;
    }
    const cw = chipWidthOf(c.chars, chipChars);
    if (row.length > 0 && used + cw > inner) endRow();
    row.push(c.text);
    used += cw + CHIP_GAP;
  }
  if (row.length > 0) endRow();
  const lineChars = Math.floor(inner / CHIP_CHAR_WIDTH);
  const fit = (t: string): string => clip(t, lineChars);
  const lines: NodeContent['lines'] = [];
  // A failed attempt's title is its request: its foot is the prover's error instead of `by …`.
  const actionText = view.attempt && !view.attempt.inside ? undefined : compactActionText(view);
  let action: string | undefined;
  if (actionText !== undefined) {
    const [first = '', ...rest] = wrapText(actionText, lineChars, MAX_ACTION_LINES);
    action = first;
    for (const r of rest) lines.push({ kind: 'action', text: r });
  }
  if (view.uses?.length && !usesSuffix(view)) lines.push({ kind: 'uses', text: fit(`uses ${view.uses.join(', ')}`) });
  if (extras.hidden) {
    const { goals, allClosed } = extras.hidden;
    lines.push({ kind: 'hidden', text: fit(`▸ ${goals} goal${goals === 1 ? '' : 's'} below${allClosed ? ', all closed' : ''} (double-click)`) });
  }
  if (view.attempt?.error) for (const l of wrapText(view.attempt.error.replace(/\s+/g, ' '), lineChars, 3)) lines.push({ kind: 'note', text: l });
  if (extras.note) for (const l of wrapText(extras.note, lineChars, 3)) lines.push({ kind: 'note', text: l });
  const content: NodeContent = { label, more, chipRows: rows, lines, titleKind: title.kind };
  if (continues.some(Boolean)) content.chipContinues = continues;
  if (action !== undefined) content.action = action;
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
