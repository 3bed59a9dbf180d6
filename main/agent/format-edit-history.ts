import type { EditRecord } from './edit-history.ts';
import type { Suggestion } from './suggestion-queue.ts';

/** `get_edit_history` in the seed's format, with who/when under each edit and the pending suggestions. */
export function formatEditHistory(records: readonly EditRecord[], pending: readonly Suggestion[] = []): string {
  const lines = [`=== EDIT HISTORY (${records.length} edit${records.length === 1 ? '' : 's'}) ===`, ''];
  if (records.length === 0) lines.push('(no edits yet)');
  records.forEach((r, i) => {
    lines.push(`${i + 1}. ${quote(r.lhs)} -> ${quote(r.rhs)}`);
    lines.push(`   ${r.outcome} · ${r.source} · ${new Date(r.time).toISOString()}${r.reason ? ` · ${r.reason}` : ''}`);
  });
  if (pending.length > 0) {
    lines.push('', `=== PENDING SUGGESTIONS (${pending.length}) ===`, '');
    for (const s of pending) lines.push(`#${s.id} ${suggestionSummary(s)}  [${s.label}] from ${s.from}`);
  }
  return lines.join('\n');
}

/** One line: `"H : a" -> "H : b"` for hypothesis edits, the commands for command suggestions. */
export function suggestionSummary(s: Suggestion): string {
  const e = s.edit;
  return e.kind === 'hypothesis-edit'
    ? `${quote(`${e.hypothesisName} : ${e.originalValue}`)} -> ${quote(`${e.hypothesisName} : ${e.suggestedValue}`)}`
    : e.commands.join('; ');
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '\\"')}"`;
}
