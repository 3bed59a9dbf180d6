import type { Suggestion, SuggestionStatus } from '../../shared/agent/agent-types.ts';

export type { CommandSuggestion, HypothesisEdit, Suggestion, SuggestionLabel, SuggestionStatus } from '../../shared/agent/agent-types.ts';

export type NewSuggestion = Omit<Suggestion, 'id' | 'status' | 'time'> & { time?: number };

/**
 * The suggestion queue every attached agent and source writes to and the workbench's panel reads:
 * each suggestion is labelled by the prover before it is queued, tagged with who made it, and waits
 * for the user to accept or reject it.
 */
export class SuggestionQueue {
  private readonly items: Suggestion[] = [];
  private nextId = 1;
  private readonly listeners = new Set<(s: Suggestion) => void>();

  add(input: NewSuggestion): Suggestion {
    const suggestion: Suggestion = { ...input, id: this.nextId++, status: 'pending', time: input.time ?? Date.now() };
    this.items.push(suggestion);
    this.emit(suggestion);
    return { ...suggestion };
  }

  get(id: number): Suggestion | undefined {
    const s = this.items.find((x) => x.id === id);
    return s ? { ...s } : undefined;
  }

  list(filter?: { status?: SuggestionStatus; from?: string }): Suggestion[] {
    return this.items
      .filter((s) => (filter?.status === undefined || s.status === filter.status) && (filter?.from === undefined || s.from === filter.from))
      .map((s) => ({ ...s }));
  }

  /** A pending suggestion with the same edit, so agents do not queue the same thing twice. */
  findPendingDuplicate(edit: Suggestion['edit']): Suggestion | undefined {
    const key = editKey(edit);
    const s = this.items.find((x) => x.status === 'pending' && editKey(x.edit) === key);
    return s ? { ...s } : undefined;
  }

  /** Marks a pending suggestion decided; throws when it is unknown or already decided. */
  decide(id: number, status: Exclude<SuggestionStatus, 'pending'>): Suggestion {
    const s = this.items.find((x) => x.id === id);
    if (!s) throw new Error(`no suggestion #${id}`);
    if (s.status !== 'pending') throw new Error(`suggestion #${id} is already ${s.status}`);
    s.status = status;
    this.emit(s);
    return { ...s };
  }

  /** Attaches a fidelity verdict to a suggestion (checked after it was queued: the check may take a while). */
  setFidelity(id: number, fidelity: Suggestion['fidelity']): Suggestion | undefined {
    const s = this.items.find((x) => x.id === id);
    if (!s) return undefined;
    s.fidelity = fidelity;
    this.emit(s);
    return { ...s };
  }

  onChange(listener: (s: Suggestion) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(s: Suggestion): void {
    for (const listener of this.listeners) listener({ ...s });
  }
}

function editKey(edit: Suggestion['edit']): string {
  const squash = (t: string): string => t.replace(/\s+/g, ' ').trim();
  return edit.kind === 'hypothesis-edit'
    ? `h\u0000${edit.hypothesisName}\u0000${squash(edit.suggestedValue)}`
    : `c\u0000${edit.commands.map(squash).join('\u0000')}`;
}
