import * as monaco from 'monaco-editor/editor/editor.api.js';
import { placeSuggestion, staleReason } from '../../shared/agent/suggestion-placement.ts';
import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';
import { getModel } from './monaco-models.ts';
import { checker } from './workbench.ts';

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
