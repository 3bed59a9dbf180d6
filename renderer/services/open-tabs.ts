import { useArbor } from '../store/store.ts';
import type { ArborState } from '../store/store.ts';
import { getModel } from './monaco-models.ts';

/** One open tab as a reload finds it again: where its text is, and how far it was checked. */
export interface SavedTab {
  uri: string;
  title: string;
  path?: string;
  /** A clean untitled buffer (an example copy) has no file and no recovery: its text, when small. */
  text?: string;
  /** The last line that had been checked: the reload checks through it again. */
  checkedThrough?: number;
}

export interface SavedTabs {
  tabs: SavedTab[];
  active: string | null;
}

const KEY = 'arbor.tabs';
const MAX_UNTITLED_TEXT = 64 * 1024;

/** This window's tabs before a reload (sessionStorage is per window); none on any other start. */
export function savedTabs(): SavedTabs | undefined {
  try {
    const nav = performance.getEntriesByType('navigation')[0] as { type?: string } | undefined;
    const raw = sessionStorage.getItem(KEY);
    if (nav?.type !== 'reload' || !raw) return undefined;
    const parsed = JSON.parse(raw) as SavedTabs;
    return Array.isArray(parsed.tabs) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function snapshot(s: ArborState): SavedTabs {
  const tabs = s.documents.order.flatMap((uri): SavedTab[] => {
    const d = s.documents.docs[uri];
    if (!d) return [];
    const entries = s.checking[uri]?.entries ?? [];
    const checked = entries.length > 0 ? Math.max(...entries.map((e) => e.line)) : undefined;
    const text = d.path === undefined && !d.dirty ? getModel(uri)?.getValue() : undefined;
    return [{
      uri, title: d.title, ...(d.path !== undefined ? { path: d.path } : {}),
      ...(text !== undefined && text.length <= MAX_UNTITLED_TEXT ? { text } : {}),
      ...(checked !== undefined ? { checkedThrough: checked } : {}),
    }];
  });
  return { tabs, active: s.documents.activeUri };
}

/** Keeps this window's tab list in sessionStorage as it changes, for the next reload. */
export function rememberTabs(): void {
  let last = '';
  const write = (s: ArborState): void => {
    const text = JSON.stringify(snapshot(s));
    if (text === last) return;
    last = text;
    try {
      sessionStorage.setItem(KEY, text);
    } catch {
      // Storage full or disabled: a reload then starts without the tabs (recovery still has the unsaved ones).
    }
  };
  useArbor.subscribe((s, prev) => {
    if (s.documents !== prev.documents || s.checking !== prev.checking) write(s);
  });
}
