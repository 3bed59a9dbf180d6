import type { TreeView } from '../proof-tree/proof-tree.ts';

/**
 * What a node shows. Leaves are open or proved by the tree itself; `running` and `failed` are the
 * workbench's overlay on the current goal (a command is running on it / the last command on it failed).
 * A bundle whose goals are all proved shows as proved.
 */
export type DisplayStatus = 'open' | 'proved' | 'failed' | 'running' | 'bundle' | 'closed' | 'abandoned' | 'given-up';

export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['open', 'proved', 'failed', 'running', 'bundle', 'closed', 'abandoned', 'given-up'];

/** Distinct colours (and a legend's labels) shared by canvas, SVG export and the legend. */
export const STATUS_STYLE: Readonly<Record<DisplayStatus, { fill: string; stroke: string; label: string }>> = {
  open: { fill: '#fff7e0', stroke: '#d89b00', label: 'open' },
  proved: { fill: '#e3f6e5', stroke: '#2e9a45', label: 'proved' },
  failed: { fill: '#fde4e4', stroke: '#d33a3a', label: 'failed' },
  running: { fill: '#e2edfd', stroke: '#2f6fdb', label: 'running' },
  bundle: { fill: '#f1f1f4', stroke: '#7a7a8c', label: 'bundle' },
  // A derivation's finished branches: present, but quieter than what is still to do.
  closed: { fill: '#f4f7f4', stroke: '#a9c4ae', label: 'closed' },
  // A replayed transcript's REVERTed branch: tried, then dropped.
  abandoned: { fill: '#f3f3f3', stroke: '#b5b5b5', label: 'abandoned' },
  // A `.v` proof's goal given up with `admit`: left unproved, never drawn like a proved one.
  'given-up': { fill: '#f6e8fb', stroke: '#9b3fb8', label: 'given up' },
};

export interface StatusOverlay {
  /** The current goal's overlay, if any. */
  current?: 'running' | 'failed';
  /** Why the current goal failed, shown on it (a counterexample that makes it false). */
  note?: string;
}

export function leafStatus(view: TreeView, overlay: StatusOverlay): DisplayStatus {
  if (view.kind === 'bundle') return 'bundle';
  if (view.attempt) return view.attempt.kind === 'failed' ? 'failed' : 'abandoned';
  if (view.current === 'goal' && overlay.current) return overlay.current;
  if (view.givenUp) return 'given-up';
  if (view.closed) return 'closed';
  return view.status === 'proved' ? 'proved' : 'open';
}
