import { diffArrays } from 'diff';

/** One run of a diff: text both sides share, or text only the old (removed) or the new (added) side has. */
export interface TextPart {
  text: string;
  kind: 'same' | 'added' | 'removed';
}

/** Beyond this many edits a diff is noise: the texts are shown as replaced. */
const MAX_EDITS = 2000;

/** Identifiers (qualified names included), numbers, runs of blanks, and single other characters (operators, brackets, symbols). */
export function diffTokens(text: string): string[] {
  return text.match(/\s+|[\p{L}_][\p{L}\p{N}_'.]*|\p{N}+|./gsu) ?? [];
}

/**
 * The one text diff of the workbench (goals, hypotheses, statements' normal forms): token-level, so `x`
 * vs `x0` is one changed name rather than a stray `0`, computed by jsdiff's Myers algorithm, which is
 * fast when the texts are alike and gives up past MAX_EDITS (the texts are then shown as replaced).
 */
export function diffText(before: string, after: string): TextPart[] {
  if (before === after) return before === '' ? [] : [{ text: after, kind: 'same' }];
  const changes = diffArrays(diffTokens(before), diffTokens(after), { maxEditLength: MAX_EDITS });
  if (!changes) return [...(before ? [{ text: before, kind: 'removed' as const }] : []), ...(after ? [{ text: after, kind: 'added' as const }] : [])];
  const parts: TextPart[] = [];
  for (const c of changes) {
    const kind: TextPart['kind'] = c.added ? 'added' : c.removed ? 'removed' : 'same';
    const text = c.value.join('');
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else if (text !== '') parts.push({ text, kind });
  }
  return parts;
}
