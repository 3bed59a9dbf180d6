import { z } from 'zod';
import type { EditRecord } from '../../shared/agent/agent-types.ts';

export type { EditOutcome, EditRecord } from '../../shared/agent/agent-types.ts';

const recordSchema = z.object({
  lhs: z.string().max(100_000),
  rhs: z.string().max(100_000),
  outcome: z.enum(['accepted', 'rejected', 'manual', 'undone']),
  source: z.string().max(200),
  time: z.number(),
  hypothesisName: z.string().max(200).optional(),
  reason: z.string().max(10_000).optional(),
  suggestionId: z.number().int().optional(),
});
const fileSchema = z.object({ version: z.literal(1), edits: z.array(recordSchema) });

/**
 * The edit history of a proof (seed 003): every accepted or rejected suggestion and every manual edit,
 * with time and source. It is saved next to the proof file, so it is plain JSON with a version.
 */
export class EditHistory {
  private readonly records: EditRecord[];
  private readonly listeners = new Set<(record: EditRecord) => void>();

  constructor(records: readonly EditRecord[] = []) {
    this.records = records.map((r) => ({ ...r }));
  }

  add(record: EditRecord): EditRecord {
    const copy = { ...record };
    this.records.push(copy);
    for (const listener of this.listeners) listener(copy);
    return copy;
  }

  /** Replaces the records with a saved history's (loading the proof file's companion); no listener fires. */
  restore(records: readonly EditRecord[]): void {
    this.records.splice(0, this.records.length, ...records.map((r) => ({ ...r })));
  }

  list(): EditRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  onAdd(listener: (record: EditRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** JSON for saving with the proof file. */
  serialize(): string {
    return `${JSON.stringify({ version: 1, edits: this.records }, null, 2)}\n`;
  }

  /** Reads a saved history; throws with a short message when the text is not one. */
  static parse(text: string): EditHistory {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error('edit history: not JSON');
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) throw new Error(`edit history: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return new EditHistory(parsed.data.edits.map(withoutUndefined));
  }
}

function withoutUndefined(r: z.infer<typeof recordSchema>): EditRecord {
  const out: EditRecord = { lhs: r.lhs, rhs: r.rhs, outcome: r.outcome, source: r.source, time: r.time };
  if (r.hypothesisName !== undefined) out.hypothesisName = r.hypothesisName;
  if (r.reason !== undefined) out.reason = r.reason;
  if (r.suggestionId !== undefined) out.suggestionId = r.suggestionId;
  return out;
}
