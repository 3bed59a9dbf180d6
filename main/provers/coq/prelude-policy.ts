import { splitSentences } from './coq-sentence.ts';

/**
 * Which vernacular a channel prelude set through the protocol (`PRELUDE "…"`) may contain. A prelude comes
 * from a client (possibly an agent), so it may declare things but never touch files, the load path or the
 * process, and never assume anything (a reproduction script must stay closed under the global context):
 * only sentences starting with these keywords pass (after `Local`/`Global`/`#[…]` prefixes).
 */
const ALLOWED = new Set([
  'Require', 'From', 'Import', 'Export', 'Open', 'Close', 'Definition', 'Fixpoint', 'CoFixpoint',
  'Inductive', 'CoInductive', 'Variant', 'Record', 'Structure', 'Class', 'Instance', 'Existing', 'Notation',
  'Infix', 'Arguments', 'Implicit', 'Hint', 'Create', 'Ltac', 'Let', 'Set', 'Unset', 'Scheme', 'Coercion',
  'Opaque', 'Transparent',
]);
const PREFIXES = new Set(['Local', 'Global', 'Polymorphic', 'Monomorphic', 'Program']);
const FORBIDDEN_OPTIONS = /^(Set|Unset)\s+(Extraction|Printing\s+Width)/;

/** Returns why the prelude is refused, or undefined when every sentence is allowed. */
export function checkCoqPrelude(text: string): string | undefined {
  const unclosed = unclosedDelimiter(text);
  if (unclosed) return unclosed;
  if (/\badmit\b|\bAdmitted\b/.test(text)) return 'parse error: prelude may not admit anything';
  const sentences = splitSentences(text);
  if (sentences.length > 0 && !(sentences[sentences.length - 1] as string).endsWith('.')) return 'parse error: prelude does not end with "."';
  for (const sentence of sentences) {
    const words = sentence.replace(/^#\[[^\]]*\]\s*/, '').split(/\s+/);
    let i = 0;
    while (PREFIXES.has(words[i] ?? '')) i++;
    const keyword = words[i] ?? '';
    if (!ALLOWED.has(keyword)) return `parse error: prelude sentence not allowed: ${keyword || sentence.slice(0, 20)}`;
    if (FORBIDDEN_OPTIONS.test(words.slice(i).join(' '))) return `parse error: prelude option not allowed: ${words.slice(i, i + 2).join(' ')}`;
  }
  return undefined;
}

/** The shared sentence splitter forgives unclosed strings and comments; a prelude must not have any. */
function unclosedDelimiter(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    if (inString) {
      if (text[i] === '"') inString = false;
    } else if (text.startsWith('(*', i)) {
      depth++;
      i++;
    } else if (depth > 0 && text.startsWith('*)', i)) {
      depth--;
      i++;
    } else if (depth === 0 && text[i] === '"') inString = true;
  }
  if (depth > 0) return 'parse error: unclosed comment in prelude';
  if (inString) return 'parse error: unclosed string in prelude';
  return undefined;
}
