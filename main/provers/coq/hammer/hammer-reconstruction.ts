/**
 * CoqHammer ends a successful `hammer` with "Replace the hammer tactic with:\n\tTACTIC." The printed
 * tactic does not always parse as printed (e.g. `srun eauto use: …` must be `srun (eauto) use: …`), so
 * the session tries the variants below, in order, and keeps the first that Coq accepts.
 */
const HINT = /Replace the hammer tactic with:\s*([\s\S]*)$/;

export const reconstructionFrom = (messages: string[]): string | undefined => {
  for (const m of messages) {
    const hit = HINT.exec(m);
    if (hit?.[1]) return hit[1].replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  }
  return undefined;
};

export const reconstructionVariants = (tactic: string): string[] => {
  const out = [tactic];
  // A tactic argument of a tactical (srun, hammer's "srun TAC use: …") needs parentheses.
  const srun = /^srun\s+(?!\()([^\s:]+(?:\s+[^\s:]+)*?)\s+(use|unfold|inv|ctrs):/.exec(tactic);
  if (srun) out.push(`srun (${srun[1] ?? ''})${tactic.slice(`srun ${srun[1] ?? ''}`.length)}`);
  // As a last resort drop srun: the inner tactic with the lemmas as plain hints.
  const use = /^srun\s+\(?([\w]+)\)?\s+use:\s*(.*)$/.exec(tactic);
  if (use) out.push(`${use[1] ?? ''} using ${use[2] ?? ''}`);
  return [...new Set(out)];
};

/** What CoqHammer said about the provers it found ("Eprover found", "Z3 not found", …). */
export const proversFrom = (messages: string[]): { found: string[]; missing: string[] } => {
  const found: string[] = [];
  const missing: string[] = [];
  for (const m of messages) {
    const hit = /^(\w+) (not )?found$/.exec(m.trim());
    if (hit?.[1]) (hit[2] ? missing : found).push(hit[1]);
  }
  return { found, missing };
};
