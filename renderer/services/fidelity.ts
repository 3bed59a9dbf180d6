import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';

const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

/** Run: the panel's two statements go to the host's `checkFidelity`; the panel shows progress until it answers. */
export async function runFidelityCheck(): Promise<void> {
  const s = store();
  const { canonical, candidate, context, backend } = s.fidelity.form;
  if (s.fidelity.runningSince !== null) return;
  if (canonical.trim() === '' || candidate.trim() === '') {
    s.finishFidelityRun({ error: 'paste both statements first' });
    return;
  }
  s.startFidelityRun(Date.now());
  try {
    const report = await api.checkStatementFidelity({ canonical: canonical.trim(), candidate: candidate.trim(), backend, ...(context.trim() ? { context } : {}) });
    store().finishFidelityRun({ report });
  } catch (err) {
    store().finishFidelityRun({ error: (err as Error).message });
  }
}

/**
 * Each document's reference statement follows it to its channel's agent session on the host (also
 * when the document gets a new channel): suggested GOALs on that channel are checked against it.
 */
export function followReferences(): () => void {
  const sent = new Map<number, string>();
  const sync = (): void => {
    const s = store();
    const wanted = new Map<number, string>();
    for (const [uri, statement] of Object.entries(s.fidelity.references)) {
      const channel = s.documents.docs[uri]?.channel;
      if (channel !== undefined) wanted.set(channel, statement);
    }
    const changes: [number, string | null][] = [];
    for (const [channel, statement] of wanted) if (sent.get(channel) !== statement) changes.push([channel, statement]);
    for (const channel of sent.keys()) if (!wanted.has(channel)) changes.push([channel, null]);
    for (const [channel, statement] of changes) {
      if (statement === null) sent.delete(channel);
      else sent.set(channel, statement);
      api.agentSetReference(channel, statement).catch((err: unknown) => store().addMessage('error', `reference statement: ${(err as Error).message}`));
    }
  };
  sync();
  return useArbor.subscribe(sync);
}
