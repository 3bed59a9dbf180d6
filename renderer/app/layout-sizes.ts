import type { Layout } from 'react-resizable-panels';
import { getSettings, updateSettings } from '../services/arbor-api.ts';

/**
 * The sizes of the workbench's panes (editor, tree, inspector; the bottom dock), remembered per user in the
 * host's settings file: `layout.columns` and `layout.rows`, each a JSON map of pane id to percent.
 */
export type LayoutKey = 'layout.columns' | 'layout.rows';

/** A saved layout if it is one: the expected panes, each a percentage, adding up to about 100. */
export function parseSavedLayout(value: unknown, panes: readonly string[]): Layout | undefined {
  if (typeof value !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const layout: Layout = {};
  let sum = 0;
  for (const id of panes) {
    const v = (parsed as Record<string, unknown>)[id];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) return undefined;
    layout[id] = v;
    sum += v;
  }
  return Math.abs(sum - 100) < 1 ? layout : undefined;
}

/** The user's saved layouts (none when the host has no settings or they do not parse). */
export async function loadLayouts(): Promise<Partial<Record<LayoutKey, string>>> {
  const settings = await getSettings().catch(() => ({}) as Record<string, unknown>);
  const out: Partial<Record<LayoutKey, string>> = {};
  for (const key of ['layout.columns', 'layout.rows'] as const) {
    const v = (settings as Record<string, unknown>)[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}

/** Saves one layout (after the user let go of a splitter); a failure only costs the remembered size. */
export function saveLayout(key: LayoutKey, layout: Layout): void {
  const rounded = Object.fromEntries(Object.entries(layout).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  void updateSettings({ [key]: JSON.stringify(rounded) }).catch(() => undefined);
}
