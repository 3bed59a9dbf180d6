import * as monaco from 'monaco-editor/editor/editor.api.js';
import type { ApiEvent } from '../../shared/api/api-contract.ts';
import { placeSuggestion, staleReason } from '../../shared/agent/suggestion-placement.ts';
import { WINDOW_ID } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';
import { getModel } from './monaco-models.ts';
import { checker } from './document-client.ts';

const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

/**
 * The renderer's side of the agent session: the host's session follows the active document's channel
 * (and file, for the edit history), and accepting a suggestion writes it into that document's script.
 */
export function followActiveDocument(): () => void {
  let last = '';
  const sync = (): void => {
    const s = store();
    const doc = s.documents.activeUri ? s.documents.docs[s.documents.activeUri] : undefined;
    const key = doc?.channel === undefined ? '' : `${doc.channel}\u0000${doc.path ?? ''}`;
    if (key === last) return;
    last = key;
    if (doc?.channel === undefined) {
      s.setAgentSnapshot(null);
      return;
    }
    // The host started the channel's agent session with the channel (it has seen the whole document).
    api.agentFocus(doc.channel, doc.path).then((snap) => {
      if (last === key) store().setAgentSnapshot(snap);
    }).catch((err: unknown) => store().addMessage('error', `agent: ${(err as Error).message}`));
  };
  sync();
  return useArbor.subscribe(sync);
}

/**
 * Accept: the suggestion's commands become one script line (after the checked line it was made for,
 * or in place of the line that failed there), the checker runs through it, and only a line that
 * checks is recorded as accepted. A line that fails stays in the editor with its error (Ctrl+Z undoes it).
 */
export async function acceptSuggestion(id: number): Promise<void> {
  const s = store();
  const suggestion = s.suggestions.list.find((x) => x.id === id);
  const uri = s.documents.activeUri;
  const model = uri ? getModel(uri) : undefined;
  if (!suggestion || !uri || !model) return;
  s.setSuggestionBusy(id, true);
  try {
    const check = s.checking[uri];
    // A suggestion for an earlier state is never inserted: it would land in a proof it was not made for.
    const stale = staleReason(check?.entries ?? [], suggestion);
    if (stale !== undefined) {
      store().addMessage('error', `suggestion #${id} is stale: ${stale}. Ask again for the current goal.`);
      return;
    }
    const place = placeSuggestion(model.getLinesContent(), check?.entries ?? [], check?.error, suggestion);
    const range = place.replace > 0
      ? new monaco.Range(place.line, 1, place.line, model.getLineMaxColumn(place.line))
      : new monaco.Range(place.line, 1, place.line, 1);
    const text = place.replace > 0 ? place.text : `${place.text}${model.getEOL()}`;
    model.pushEditOperations([], [{ range, text }], () => null);
    await checker.checkThrough(uri, place.checkThrough);
    const after = store().checking[uri];
    if (after?.error && after.error.line <= place.checkThrough) {
      store().addMessage('error', `suggestion #${id} did not check at line ${after.error.line}: ${after.error.message}`);
      return;
    }
    await api.agentDecide(id, 'accept');
    recordUndoOf(model, id, place.text);
  } catch (err) {
    store().addMessage('error', `accept #${id}: ${(err as Error).message}`);
  } finally {
    store().setSuggestionBusy(id, false);
  }
}

export async function rejectSuggestion(id: number): Promise<void> {
  try {
    await api.agentDecide(id, 'reject');
  } catch (err) {
    store().addMessage('error', `reject #${id}: ${(err as Error).message}`);
  }
}

/** Runs the built-in offline sources (hammer portfolio, quick tactics) on the current goal. */
export async function suggestForCurrentGoal(): Promise<void> {
  if (store().suggestions.suggesting) return;
  store().setSuggesting(true);
  try {
    const queued = await api.agentRunSources();
    if (queued.length === 0) store().addMessage('info', 'Suggest: nothing new for the current goal.');
  } catch (err) {
    store().addMessage('error', `suggest: ${(err as Error).message}`);
  } finally {
    store().setSuggesting(false);
  }
}

/** Once the user undoes an accepted suggestion's line (Ctrl+Z), the edit history records it. */
function recordUndoOf(model: monaco.editor.ITextModel, id: number, line: string): void {
  const watch = model.onDidChangeContent((e) => {
    if (!e.isUndoing || model.getLinesContent().includes(line)) return;
    watch.dispose();
    api.agentUndoAccept(id).catch((err: unknown) => store().addMessage('error', `undo of #${id}: ${(err as Error).message}`));
  });
  model.onWillDispose(() => watch.dispose());
}

/**
 * Another client of the document's session (an MCP agent) ran a proof command on it: the command becomes
 * a line right after the checked region (an undoable edit, like typing it), is checked, and is taken out
 * again if it fails, so the agent's failures never stay in the user's text. The host gets the line back.
 */
export async function insertClientCommand(event: Extract<ApiEvent, { kind: 'document-insert' }>): Promise<void> {
  if (event.client !== WINDOW_ID) return;
  const answer = (p: { line?: number; refused?: string }): Promise<null> => api.documentInserted({ client: WINDOW_ID, uri: event.uri, id: event.id, ...p });
  const model = getModel(event.uri);
  if (!model) {
    await answer({ refused: 'the document is not open in this window' });
    return;
  }
  try {
    const entries = store().checking[event.uri]?.entries ?? [];
    const place = placeSuggestion(model.getLinesContent(), entries, undefined, { apply: [event.text], step: entries.at(-1)?.stepAfter ?? 0 });
    const line = Math.min(place.line, model.getLineCount() + 1);
    const edit = line > model.getLineCount()
      ? { range: new monaco.Range(line - 1, model.getLineMaxColumn(line - 1), line - 1, model.getLineMaxColumn(line - 1)), text: `${model.getEOL()}${place.text}` }
      : { range: new monaco.Range(line, 1, line, 1), text: `${place.text}${model.getEOL()}` };
    model.pushStackElement();
    model.pushEditOperations([], [edit], () => null);
    model.pushStackElement();
    await checker.checkThrough(event.uri, line);
    const after = store().checking[event.uri];
    if (after?.error?.line === line && model.getLineContent(line) === place.text) {
      store().addMessage('error', `${event.source}: ${event.text} — ${after.error.message} (not kept)`, event.uri);
      const range = line < model.getLineCount() ? new monaco.Range(line, 1, line + 1, 1) : new monaco.Range(line - 1, model.getLineMaxColumn(line - 1), line, model.getLineMaxColumn(line));
      model.pushEditOperations([], [{ range, text: '' }], () => null);
    } else {
      store().addMessage('info', `${event.source} added line ${line}: ${event.text}`, event.uri);
    }
    await answer({ line });
  } catch (err) {
    await answer({ refused: (err as Error).message }).catch(() => undefined);
  }
}
