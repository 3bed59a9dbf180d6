import type { StateCreator } from 'zustand';
import type { ArborState } from './store.ts';

const WINDOW_KEY = 'arbor.window';

/** An open buffer. Its text lives in a Monaco model keyed by `uri` (services/monaco-models.ts), not here. */
/**
 * This window's id: its part of untitled URIs (two windows each have an "Untitled 1") and the key of its
 * recovery files. Kept in sessionStorage across a reload of the same window, so the reloaded page gets
 * its own buffers back; any other start (a new or duplicated tab, which copies sessionStorage) takes a
 * new one, so two windows never share an id.
 */
export const WINDOW_ID = windowId();

function windowId(): string {
  const fresh = globalThis.crypto.randomUUID().slice(0, 8);
  try {
    const nav = globalThis.performance?.getEntriesByType?.('navigation')[0] as { type?: string } | undefined;
    const kept = globalThis.sessionStorage.getItem(WINDOW_KEY);
    if (kept && /^[A-Za-z0-9_-]{1,64}$/.test(kept) && nav?.type === 'reload') return kept;
    globalThis.sessionStorage.setItem(WINDOW_KEY, fresh);
  } catch {
    // No sessionStorage (tests, storage disabled): an id for this page's life.
  }
  return fresh;
}

/** "Untitled 3" for `untitled:3f2a9c1e-3`. */
export const untitledTitle = (uri: string): string => `Untitled ${uri.slice(uri.lastIndexOf('-') + 1).replace(/^untitled:/, '')}`;

export interface DocumentMeta {
  uri: string;
  title: string;
  path?: string;
  dirty: boolean;
  /** The shell channel the document is checked on (opened on first check). */
  channel?: number;
}

export interface DocumentsSlice {
  documents: { docs: Record<string, DocumentMeta>; order: string[]; activeUri: string | null; untitledCounter: number };
  addDocument(doc: DocumentMeta): void;
  closeDocument(uri: string): void;
  setActiveDocument(uri: string): void;
  /** Puts the documents named in `uris` in that order (others keep theirs, after them). */
  reorderDocuments(uris: string[]): void;
  patchDocument(uri: string, patch: Partial<DocumentMeta>): void;
  nextUntitled(): string;
}

export const createDocumentsSlice: StateCreator<ArborState, [], [], DocumentsSlice> = (set, get) => ({
  documents: { docs: {}, order: [], activeUri: null, untitledCounter: 0 },
  addDocument: (doc) => set((s) => ({
    documents: {
      ...s.documents,
      docs: { ...s.documents.docs, [doc.uri]: doc },
      order: s.documents.order.includes(doc.uri) ? s.documents.order : [...s.documents.order, doc.uri],
      activeUri: doc.uri,
    },
  })),
  closeDocument: (uri) => set((s) => {
    const { [uri]: _closed, ...docs } = s.documents.docs;
    const order = s.documents.order.filter((u) => u !== uri);
    return { documents: { ...s.documents, docs, order, activeUri: s.documents.activeUri === uri ? order[order.length - 1] ?? null : s.documents.activeUri } };
  }),
  setActiveDocument: (uri) => set((s) => ({ documents: { ...s.documents, activeUri: uri } })),
  reorderDocuments: (uris) => set((s) => {
    const named = uris.filter((u) => s.documents.order.includes(u));
    return { documents: { ...s.documents, order: [...named, ...s.documents.order.filter((u) => !named.includes(u))] } };
  }),
  patchDocument: (uri, patch) => set((s) => {
    const doc = s.documents.docs[uri];
    if (!doc) return {};
    return { documents: { ...s.documents, docs: { ...s.documents.docs, [uri]: { ...doc, ...patch } } } };
  }),
  nextUntitled: () => {
    let n = get().documents.untitledCounter + 1;
    while (get().documents.docs[`untitled:${WINDOW_ID}-${n}`]) n++;
    set((s) => ({ documents: { ...s.documents, untitledCounter: n } }));
    return `untitled:${WINDOW_ID}-${n}`;
  },
});

export const selectActiveUri = (s: ArborState): string | null => s.documents.activeUri;
export const selectActiveDocument = (s: ArborState): DocumentMeta | undefined =>
  s.documents.activeUri ? s.documents.docs[s.documents.activeUri] : undefined;
export const selectDocumentOrder = (s: ArborState): string[] => s.documents.order;
export const selectDocuments = (s: ArborState): Record<string, DocumentMeta> => s.documents.docs;
