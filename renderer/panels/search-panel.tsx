import { useState } from 'react';
import type { SearchAnswer } from '../../shared/protocol/query-answer.ts';
import { insertAtCursor } from '../editor/editor-pane.tsx';
import { searchLemmas } from '../services/look-up.ts';

/**
 * Lemma search (Coq `Search`) in the active document's environment: patterns such as `_ ++ [_]` or
 * `length (rev _)`; a result's name goes into the editor at the cursor.
 */
export function SearchPanel() {
  const [pattern, setPattern] = useState('');
  const [answer, setAnswer] = useState<SearchAnswer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async (): Promise<void> => {
    if (pattern.trim() === '') return;
    setBusy(true);
    setError(undefined);
    try {
      setAnswer(await searchLemmas(pattern));
    } catch (e) {
      setAnswer(undefined);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="search-panel" data-testid="search-panel">
      <form onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <input value={pattern} onChange={(e) => setPattern(e.target.value)} placeholder="A pattern with _ holes, e.g. length (_ ++ _)" aria-label="search pattern" data-testid="search-input" />
        <button type="submit" disabled={busy}>{busy ? 'Searching…' : 'Search'}</button>
      </form>
      {error && <p className="error" data-testid="search-error">{error}</p>}
      {answer && answer.results.length === 0 && <p className="muted">No lemma matches {answer.pattern}.</p>}
      {answer && answer.results.length > 0 && (
        <table className="search-results">
          <tbody>
            {answer.results.map((r) => (
              <tr key={r.name} data-testid="search-result">
                <td><button type="button" title="Insert the name at the cursor" onClick={() => insertAtCursor(r.name)}>Insert</button></td>
                <td className="name">{r.name}</td>
                <td className="type"><code>{r.type}</code></td>
                <td className="module muted">{r.module === 'document' ? 'this document' : r.module ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {answer?.truncated && <p className="muted">Only the first {answer.results.length} results are shown: refine the pattern.</p>}
    </div>
  );
}
