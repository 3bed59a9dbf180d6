/**
 * Which vernacular a channel prelude set through the protocol (`PRELUDE "…"`) may contain. A prelude comes
 * from a client (possibly an agent), so it may declare things but never touch files, the load path or the
 * process: only sentences starting with these keywords pass (after `Local`/`Global`/`#[…]` prefixes).
 */
const ALLOWED = new Set([
  'Require', 'From', 'Import', 'Export', 'Open', 'Close', 'Definition', 'Fixpoint', 'CoFixpoint',
  'Inductive', 'CoInductive', 'Variant', 'Record', 'Structure', 'Class', 'Instance', 'Existing', 'Notation',
  'Infix', 'Arguments', 'Implicit', 'Hint', 'Create', 'Ltac', 'Parameter', 'Parameters', 'Axiom', 'Axioms',
  'Variable', 'Variables', 'Hypothesis', 'Hypotheses', 'Context', 'Let', 'Set', 'Unset', 'Scheme', 'Coercion',
  'Section', 'End', 'Module', 'Opaque', 'Transparent', 'Abbreviation',
]);
const PREFIXES = new Set(['Local', 'Global', 'Polymorphic', 'Monomorphic', 'Program']);
const FORBIDDEN_OPTIONS = /^(Set|Unset)\s+(Extraction|Printing\s+Width)/;

/** Returns why the prelude is refused, or undefined when every sentence is allowed. */
export function checkCoqPrelude(text: string): string | undefined {
  const sentences = splitSentences(text);
  if (typeof sentences === 'string') return sentences;
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

/** Coq sentences end with `.` followed by a blank or the end; strings and comments are skipped. */
function splitSentences(text: string): string[] | string {
  const sentences: string[] = [];
  let current = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return 'parse error: unclosed string in prelude';
      current += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (text.startsWith('(*', i)) {
      let depth = 0;
      let j = i;
      do {
        if (text.startsWith('(*', j)) { depth++; j += 2; } else if (text.startsWith('*)', j)) { depth--; j += 2; } else j++;
      } while (depth > 0 && j < text.length);
      if (depth > 0) return 'parse error: unclosed comment in prelude';
      current += ' ';
      i = j;
      continue;
    }
    current += c;
    i++;
    if (c === '.' && (i >= text.length || /\s/.test(text[i] as string))) {
      if (current.trim() !== '.') sentences.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') return 'parse error: prelude does not end with "."';
  return sentences;
}
