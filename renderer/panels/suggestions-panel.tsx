import { selectSuggestions } from '../store/suggestions-slice.ts';
import { useArbor } from '../store/store.ts';

/** Agent suggestions (accept/reject). Placeholder until the MCP agent side feeds the slice. */
export function SuggestionsPanel() {
  const list = useArbor(selectSuggestions);
  if (list.length === 0) return <p className="muted suggestions-panel">No suggestions yet. Agents connected over MCP will propose hypothesis edits here.</p>;
  return (
    <ul className="suggestions-panel">
      {list.map((s) => (
        <li key={s.id} className={`suggestion ${s.state}`}>
          <div><b>line {s.line}</b>: <code>{s.text}</code> <span className="muted">({s.source})</span></div>
          <div className="muted">{s.rationale}</div>
          {s.state === 'pending' && (
            <>
              <button type="button" onClick={() => useArbor.getState().resolveSuggestion(s.id, 'accepted')}>Accept</button>
              <button type="button" onClick={() => useArbor.getState().resolveSuggestion(s.id, 'rejected')}>Reject</button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
