import type { CheckAction, DocumentState } from '../../shared/checking/document-check.ts';
import type { DocumentPatch } from '../../shared/checking/document-patch.ts';
import { applyDocumentPatch } from '../../shared/checking/document-patch.ts';
import { WINDOW_ID } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';
import { getModel } from './monaco-models.ts';
import { forgetTreeCopy } from './tree-sync.ts';

/**
 * The editor's side of the host's documents: it sends each document's text as it changes (with its
 * Monaco version and where it changed) and asks for checking by name; the host owns the channel, the
 * checked region and every request. States come back as events and as results, and land in the store.
 */
const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

/** The last state applied per document: the host's events are patches of it (a result and its events may arrive in either order). */
const known = new Map<string, DocumentState>();
/** Documents whose whole state is being fetched (a patch was missed); patches arriving meanwhile wait. */
const resyncing = new Map<string, DocumentPatch[]>();

/** Whether `state` is older than (or the same as) what this window already has. */
function notNewer(uri: string, session: number, seq: number): boolean {
  const have = known.get(uri);
  return have !== undefined && (have.session > session || (have.session === session && have.seq >= seq));
}

/** A whole state, as a call's result or after a resync. */
export function applyDocumentState(state: DocumentState): void {
  if (state.client !== WINDOW_ID || !store().documents.docs[state.uri]) return;
  if (notNewer(state.uri, state.session, state.seq)) return;
  put(state);
}

/** A change the host sent as an event: applied to the state it follows, else the whole state is fetched. */
export function receiveDocumentPatch(patch: DocumentPatch): void {
  if (patch.client !== WINDOW_ID || !store().documents.docs[patch.uri]) return;
  const waiting = resyncing.get(patch.uri);
  if (waiting) {
    waiting.push(patch);
    return;
  }
  if (notNewer(patch.uri, patch.session, patch.seq)) return;
  const next = applyDocumentPatch(known.get(patch.uri), patch);
  if (next) put(next);
  else resync(patch.uri, patch);
}

function resync(uri: string, missed: DocumentPatch): void {
  resyncing.set(uri, [missed]);
  const done = (state: DocumentState | null): void => {
    const waiting = resyncing.get(uri) ?? [];
    resyncing.delete(uri);
    // The host no longer has the document (or did not answer): nothing to catch up with, and no loop of fetches.
    if (!state) return;
    applyDocumentState(state);
    for (const p of waiting) if (!notNewer(uri, p.session, p.seq)) receiveDocumentPatch(p);
  };
  api.documentGet({ client: WINDOW_ID, uri }).then(done, () => done(null));
}

function put(state: DocumentState): void {
  const s = store();
  const doc = s.documents.docs[state.uri];
  if (!doc) return;
  known.set(state.uri, state);
  if (doc.channel !== state.channel) {
    if (doc.channel !== undefined) {
      forgetTreeCopy(doc.channel);
      s.forgetChannel(doc.channel);
    }
    s.patchDocument(state.uri, { channel: state.channel });
  }
  s.putCheck(state.uri, state.check);
}

/** Opens (or re-sends) the document in the host with its whole text. */
export async function syncDocument(uri: string, edit?: { firstLine: number; lineDelta: number }): Promise<void> {
  const model = getModel(uri);
  if (!model) return;
  if (edit) showLiveTree();
  const path = store().documents.docs[uri]?.path;
  const state = await api.documentSync({
    client: WINDOW_ID, uri, version: model.getVersionId(), text: model.getValue(),
    ...(path !== undefined ? { path } : {}), ...(edit ? { edit } : {}),
  });
  applyDocumentState(state);
}

/**
 * Running or editing a document shows its live tree again: a loaded transcript (or `.v` file) stays open
 * in its panel, but never hides the proof being worked on (a new user ran all and kept seeing the transcript).
 */
function showLiveTree(): void {
  const s = store();
  if (s.ui.treeSource !== 'live') s.setTreeSource('live');
}

async function run(uri: string, action: CheckAction): Promise<void> {
  showLiveTree();
  try {
    applyDocumentState(await api.documentRun({ client: WINDOW_ID, uri, action }));
  } catch (err) {
    store().addMessage('error', `checking: ${(err as Error).message}`);
  }
}

/** The checking commands of the toolbar, the menus and the editor's shortcuts. */
export const checker = {
  stepForward: (uri: string) => run(uri, { kind: 'forward' }),
  stepBack: (uri: string) => run(uri, { kind: 'back' }),
  runAll: (uri: string) => run(uri, { kind: 'all' }),
  runTo: (uri: string, line: number) => run(uri, { kind: 'to', line }),
  checkThrough: (uri: string, line: number) => run(uri, { kind: 'through', line }),
  async cancel(uri: string): Promise<void> {
    applyDocumentState(await api.documentCancel({ client: WINDOW_ID, uri }));
  },
  async restartProver(uri: string): Promise<void> {
    applyDocumentState(await api.documentRestartProver({ client: WINDOW_ID, uri }));
  },
  async restart(uri: string): Promise<void> {
    applyDocumentState(await api.documentRestart({ client: WINDOW_ID, uri }));
  },
  async close(uri: string): Promise<void> {
    known.delete(uri);
    resyncing.delete(uri);
    await api.documentClose({ client: WINDOW_ID, uri });
  },
};
