import { splitSentences } from './coq-sentence.ts';

/**
 * The one gate for Coq text Arbor did not write and the user did not hand it as their own file: preludes
 * sent through the protocol, `DEFINE`d declarations, preludes of workspace project files, fidelity
 * contexts. Such text may come from an agent or a downloaded workspace, so it may declare and import, but
 * never touch files, the load path, plugins' settings or the process (CoqHammer's `Hammer PredictPath`
 * runs a shell command), never switch off a kernel check, and — except where declaring assumptions is
 * the text's purpose — never assume anything. Only sentences of the forms below pass; everything else is
 * refused with the sentence's first word.
 *
 * The kernel check at `Qed` and `Print Assumptions` (assumptions.ts) stand behind this gate: a tactic
 * defined here that cheats (`Ltac t := give_up`, `Hint Extern … => admit`) can never finish a proof.
 */
export type PolicyPurpose =
  /** `PRELUDE "…"` from a client. */
  | 'prelude'
  /** `DEFINE "…"`: declarations of a proof document. */
  | 'define'
  /** The prelude of a workspace `arbor.project.json` the user opened: it may also declare axioms the user then trusts. */
  | 'project'
  /** A fidelity check's context: declaring parameters and hypotheses is what it is for. */
  | 'fidelity-context';

/** Sentence heads (after attributes and `Local`/`Global`-style prefixes) allowed for every purpose. */
const DECLARATIONS = new Set([
  'Require', 'From', 'Import', 'Export', 'Open', 'Close', 'Declare', 'Delimit', 'Bind',
  'Definition', 'Fixpoint', 'CoFixpoint', 'Let', 'Inductive', 'CoInductive', 'Variant', 'Record', 'Structure',
  'Class', 'Instance', 'Existing', 'Canonical', 'Coercion', 'Notation', 'Infix', 'Reserved', 'Arguments',
  'Implicit', 'Generalizable', 'Hint', 'Create', 'Ltac', 'Tactic', 'Scheme', 'Combined', 'Opaque', 'Transparent',
  'Typeclasses', 'Section', 'Module', 'End', 'Set', 'Unset',
]);
/** Heads that assume things: only where that is the text's purpose. */
const ASSUMPTIONS = new Set(['Axiom', 'Axioms', 'Parameter', 'Parameters', 'Conjecture', 'Conjectures', 'Hypothesis', 'Hypotheses', 'Variable', 'Variables', 'Context']);
/** Inside sections, variables and hypotheses are discharged into the definitions: no assumption. */
const SECTION_ASSUMPTIONS = new Set(['Variable', 'Variables', 'Hypothesis', 'Hypotheses', 'Context']);
const PREFIXES = new Set(['Local', 'Global', 'Polymorphic', 'Monomorphic', 'Cumulative', 'NonCumulative', 'Program', 'Private']);
/** `#[…]` attributes that change nothing about what the kernel checks. */
const ATTRIBUTES = /^(local|global|export|program|canonical|reversible|universes\((polymorphic|monomorphic|template|notemplate|cumulative|noncumulative)(,\s*(polymorphic|monomorphic|template|notemplate|cumulative|noncumulative))*\)|deprecated\(\s*(since|note)\s*=\s*"[^"]*"(,\s*(since|note)\s*=\s*"[^"]*")*\s*\))$/;
/** `Set`/`Unset` options that only change elaboration or naming conveniences. */
const OPTIONS = new Set([
  'Implicit Arguments', 'Strict Implicit', 'Strongly Strict Implicit', 'Contextual Implicit', 'Reversible Pattern Implicit',
  'Maximal Implicit Insertion', 'Asymmetric Patterns', 'Universe Polymorphism', 'Primitive Projections',
  'Elimination Schemes', 'Nonrecursive Elimination Schemes', 'Case Analysis Schemes', 'Boolean Equality Schemes',
  'Decidable Equality Schemes', 'Rewriting Schemes', 'Keyed Unification', 'Regular Subst Tactic', 'Program Mode',
]);
/** Second words that make an allowed head do something else (`Declare ML Module`, `Existing` is fine…). */
const FORBIDDEN_SECOND: Record<string, RegExp> = {
  Declare: /^(Scope|Reduction|Custom|Equivalent)$/,
  Create: /^HintDb$/,
  Typeclasses: /^(Opaque|Transparent|eauto)$/,
  Tactic: /^Notation$/,
  Combined: /^Scheme$/,
  Existing: /^(Instance|Instances|Class)$/,
  Reserved: /^(Notation|Infix)$/,
  Canonical: /^(Structure|[\p{L}_][\p{L}\p{N}_'.]*)$/u,
};
/** A module path for `Require`/`From`/`Import` (no strings: no file names). */
const MODULE_PATH = /^[\p{L}_][\p{L}\p{N}_']*(\.[\p{L}_][\p{L}\p{N}_']*)*$/u;

const LIMIT_BYTES = 256 * 1024;

/** Why `text` is refused for `purpose` (a protocol `ERR` string), or undefined when every sentence is allowed. */
export function checkUntrustedVernacular(text: string, purpose: PolicyPurpose): string | undefined {
  const what = purpose === 'fidelity-context' ? 'context' : purpose === 'define' ? 'declaration' : 'prelude';
  if (text.length > LIMIT_BYTES) return `parse error: ${what} too large (${text.length} characters; at most ${LIMIT_BYTES})`;
  if ([...text].some((c) => { const n = c.charCodeAt(0); return (n < 32 && c !== '\n' && c !== '\r' && c !== '\t') || n === 127; })) {
    return `parse error: ${what} contains control characters`;
  }
  const unclosed = unclosedDelimiter(text);
  if (unclosed) return `parse error: ${unclosed} in ${what}`;
  const sentences = splitSentences(text);
  if (sentences.length === 0) return purpose === 'define' ? `parse error: empty ${what}` : undefined;
  if (!(sentences[sentences.length - 1] as string).endsWith('.')) return `parse error: ${what} does not end with "."`;
  let sectionDepth = 0;
  const openBlocks: ('section' | 'module')[] = [];
  for (const sentence of sentences) {
    const refusal = checkSentence(sentence, purpose, sectionDepth > 0);
    if (refusal) return `parse error: ${what} ${refusal}`;
    const head = headOf(sentence);
    if (head?.words[0] === 'Section') {
      sectionDepth++;
      openBlocks.push('section');
    } else if (head?.words[0] === 'Module' && !/:=/.test(sentence)) openBlocks.push('module');
    else if (head?.words[0] === 'End') {
      if (openBlocks.pop() === 'section') sectionDepth--;
    }
  }
  if (openBlocks.length > 0) return `parse error: ${what} leaves a ${openBlocks.at(-1)} open`;
  return undefined;
}

interface Head {
  /** The sentence's words after its attributes and prefixes. */
  words: string[];
  attributes: string[];
}

function headOf(sentence: string): Head | undefined {
  let rest = sentence.trim();
  const attributes: string[] = [];
  for (;;) {
    const m = /^#\[([^\]]*)\]\s*/.exec(rest);
    if (!m) break;
    attributes.push(...(m[1] ?? '').split(/,(?![^(]*\))/).map((a) => a.trim()).filter(Boolean));
    rest = rest.slice(m[0].length);
  }
  const words = rest.replace(/\.$/, '').split(/\s+/).filter(Boolean);
  let i = 0;
  while (PREFIXES.has(words[i] ?? '')) i++;
  return { words: words.slice(i), attributes };
}

function checkSentence(sentence: string, purpose: PolicyPurpose, inSection: boolean): string | undefined {
  const head = headOf(sentence);
  if (!head) return 'sentence not allowed';
  for (const a of head.attributes) if (!ATTRIBUTES.test(a)) return `attribute not allowed: #[${a}]`;
  const [first = '', second = ''] = head.words;
  // `Declare Instance x : C.` declares an axiom (an instance with no body), `Declare Module` a module of them.
  const assumes = ASSUMPTIONS.has(first) || (first === 'Declare' && /^(Instance|Module)$/.test(second));
  if (assumes) {
    if (purpose === 'fidelity-context' || purpose === 'project') return undefined;
    if (inSection && SECTION_ASSUMPTIONS.has(first)) return undefined;
    return `sentence not allowed: ${first} (assumptions are not allowed here)`;
  }
  if (!DECLARATIONS.has(first)) return `sentence not allowed: ${first || sentence.slice(0, 20)}`;
  const forbiddenSecond = FORBIDDEN_SECOND[first];
  if (forbiddenSecond && !forbiddenSecond.test(second)) return `sentence not allowed: ${first} ${second}`.trimEnd();
  if (first === 'Set' || first === 'Unset') {
    const option = head.words.slice(1).filter((w) => /^[A-Z][A-Za-z]*$/.test(w)).join(' ');
    if (!OPTIONS.has(option)) return `option not allowed: ${head.words.slice(1).join(' ') || '(none)'}`;
    if (head.words.length - 1 !== option.split(' ').length) return `option not allowed: ${head.words.slice(1).join(' ')}`;
    return undefined;
  }
  if (first === 'Require' || first === 'From' || ((first === 'Import' || first === 'Export') && !/:=/.test(sentence))) {
    return checkModulePaths(head.words);
  }
  if (first === 'Hint' && /\b(Extern)\b/.test(second) && /\b(admit|give_up|Admitted|shelve)\b/.test(sentence)) {
    return 'hint not allowed: it gives up goals';
  }
  return undefined;
}

/** `From Root Require Import A B.`, `Require Export A.`, `Import A.`: module paths only. */
function checkModulePaths(words: string[]): string | undefined {
  for (const w of words) {
    if (['From', 'Require', 'Import', 'Export', '-'].includes(w)) continue;
    if (/^\(|\)$/.test(w)) return `module name not allowed: ${w}`;
    if (!MODULE_PATH.test(w)) return `module name not allowed: ${w}`;
  }
  return undefined;
}

/** The sentence splitter forgives unclosed strings and comments; untrusted text must not have any. */
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
  if (depth > 0) return 'unclosed comment';
  if (inString) return 'unclosed string';
  return undefined;
}
