import { useEffect, useState } from 'react';
import { selectActiveCheck } from '../store/checking-slice.ts';
import { selectActiveUri } from '../store/documents-slice.ts';
import { selectActiveDocumentMessages, selectMessages } from '../store/messages-slice.ts';
import { selectDocuments } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import { checker } from '../services/workbench.ts';
import { counterexampleInError } from '../../shared/protocol/hammer-report.ts';
import { ProblemsList } from './problems-list.tsx';

/** A false goal's instance, set apart from the message that reports it. */
function Counterexample({ text }: { text: string }) {
  const instance = counterexampleInError(text);
  if (instance === undefined) return null;
  return (
    <div className="counterexample" data-testid="counterexample">
      <strong>The goal is false.</strong> Counterexample (checked by Coq): <code>{instance}</code>
    </div>
  );
}

/** Messages, and the running command with its elapsed time and a Cancel button. */
export function MessagesPanel() {
  const [all, setAll] = useState(false);
  const messages = useArbor(all ? selectMessages : selectActiveDocumentMessages);
  const docs = useArbor(selectDocuments);
  const check = useArbor(selectActiveCheck);
  const uri = useArbor(selectActiveUri);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!check.running) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [check.running]);
  return (
    <div className="messages-panel">
      {check.running && (
        <div className="progress" data-testid="progress">
          <span className="spinner" /> line {check.running.line}{check.target ? ` (to line ${check.target})` : ''} — {(Math.max(0, now - check.running.since) / 1000).toFixed(1)} s
          <button type="button" onClick={() => uri && void checker.cancel(uri)} data-testid="cancel">Cancel</button>
        </div>
      )}
      <ProblemsList />
      <label className="messages-scope" title="Messages are grouped by document: the active one's, or every document's">
        <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} data-testid="messages-all" /> all documents
      </label>
      <ul className="message-list">
        {messages.slice().reverse().map((m) => (
          <li key={m.id} className={`message ${m.level}`}>
            <time>{new Date(m.time).toLocaleTimeString()}</time>{all && m.uri ? <span className="message-doc">{docs[m.uri]?.title ?? 'closed document'}</span> : null} {m.text}
            <Counterexample text={m.text} />
          </li>
        ))}
      </ul>
    </div>
  );
}
