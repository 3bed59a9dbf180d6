import { COQ_BLANK, COQ_NAME, coqTrim, NAME_PART, NAME_START } from './coq-sentence.ts';
import { afterSentence, type OpenBlock } from './document-blocks.ts';

/**
 * Coq's layout blanks (coq-sentence.ts): the policy reads words as Coq's lexer does. A no-break space is part of a
 * name to Coq (`Require\u00a0Import` is one identifier, not the command), so it never separates words here either.
 */
const B = `[${COQ_BLANK}]`;
const BLANK_RUNS = new RegExp(`${B}+`);
/** A proof's end as a sentence's first word, whole as Coq's lexer reads it (`Qed\u00a0x` is one name). */
const PROOF_END_HEAD = new RegExp(`^(Proof|Qed|Defined|Admitted|Abort)(?![${NAME_PART}])`);

/**
 * The one gate for Coq text Arbor did not write and the user did not hand it as their own file: preludes
 * sent through the protocol, `DEFINE`d declarations, preludes of workspace project files, fidelity
 * contexts. Such text may come from an agent or a downloaded workspace, so it may declare and import, but
 * never touch files, the load path, plugins' settings or the process (CoqHammer's `Hammer PredictPath`
 * runs a shell command), never switch off a kernel check, and — except where declaring assumptions is
 * the text's purpose — never assume anything. Only sentences of the forms below pass; everything else is
 * refused with the sentence's first word. Coq itself says where the sentences are and what each one is
 * (coq-sentence.ts, untrusted-coq-text.ts); this module only judges Coq's sentences.
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
  | 'fidelity-context'
  /**
   * A `.v` file opened read-only as derivations, in a coqidetop of its own that is thrown away: a proof may
   * be `Admitted` (and use `admit`), as real developments do. Nothing run this way is ever called proved:
   * later theorems are judged by `Print Assumptions`, which names every admitted constant they rest on.
   */
  | 'read-only';

/** Sentence heads (after attributes and `Local`/`Global`-style prefixes) allowed for every purpose. */
const DECLARATIONS = new Set([
  'Require', 'From', 'Import', 'Export', 'Open', 'Close', 'Declare', 'Delimit', 'Bind',
  'Definition', 'Fixpoint', 'Function', 'CoFixpoint', 'Let', 'Inductive', 'CoInductive', 'Variant', 'Record', 'Structure',
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
  // Only how goals are shown (`p.(x)` for `x p`): every judge reads under its own `Set Printing All`, which
  // prints projections as applications again (printing-projections.coq.test.ts).
  'Printing Projections',
]);
/**
 * `Set Warnings` may only silence notation-overridden: the override's effect on a statement is shown by the
 * statement judge, so that message is redundant; other warnings (or `-all`) would hide what only they say,
 * and turning one into an error could break Arbor's own sentences.
 */
const SILENCED_WARNINGS = new RegExp(`^"${B}*-notation-overridden${B}*"$`);
/** Second words that make an allowed head do something else (`Declare ML Module`, `Existing` is fine…). */
const FORBIDDEN_SECOND: Record<string, RegExp> = {
  Declare: /^(Scope|Reduction|Custom|Equivalent)$/,
  Create: /^HintDb$/,
  Typeclasses: /^(Opaque|Transparent|eauto)$/,
  Tactic: /^Notation$/,
  Combined: /^Scheme$/,
  Existing: /^(Instance|Instances|Class)$/,
  Reserved: /^(Notation|Infix)$/,
  Canonical: new RegExp(`^(Structure|[${NAME_START}][${NAME_PART}.]*)$`),
};
/** A module path for `Require`/`From`/`Import` (no strings: no file names). */
const MODULE_PATH = new RegExp(`^${COQ_NAME}(\\.${COQ_NAME})*$`);

/** The most text a PRELUDE, DEFINE or context may hold (a `.v` conversion's DEFINE is refused past it too). */
export const LIMIT_BYTES = 256 * 1024;

/** What the policy calls the text it judges, in its messages. */
export const whatOf = (purpose: PolicyPurpose): string => (purpose === 'fidelity-context' ? 'context' : purpose === 'define' ? 'declaration' : purpose === 'read-only' ? 'file' : 'prelude');

/**
 * What is refused before Coq sees the text at all: too large, or control characters (which neither
 * coqidetop's XML nor a source file carries faithfully). Where the sentences are is Coq's to say.
 */
export function precheckUntrusted(text: string, purpose: PolicyPurpose): string | undefined {
  const what = whatOf(purpose);
  if (text.length > LIMIT_BYTES) return `parse error: ${what} too large (${text.length} characters; at most ${LIMIT_BYTES})`;
  if ([...text].some((c) => { const n = c.charCodeAt(0); return (n < 32 && c !== '\n' && c !== '\r' && c !== '\t') || n === 127 || (n >= 0x80 && n < 0xa0); })) {
    return `parse error: ${what} contains control characters`;
  }
  return undefined;
}

/**
 * Tactics that leave a goal unproved: a proof using them never reaches a `Qed` the kernel accepts, so they are refused
 * outright. A no-break space next to the word makes another name to Coq (`admit\u00a0` is not `admit`).
 */
const GIVING_UP = /(^|[^\p{L}\p{N}_'\u00a0])(admit|give_up|Admitted)([^\p{L}\p{N}_'\u00a0]|$)/u;
/**
 * Read-only (a `.v` file's own coqidetop, thrown away): queries only print (`Print "+".` in a lesson), and
 * `Register` only names a constant for Coq's own tactics (Init/Logic, Bool, Wf_nat); neither adds an
 * assumption, and the kernel still checks every proof. `Include` in a module (PeanoNat) copies a module's
 * fields; including a module type makes its fields axioms of the file's library (`Top.…`), which the
 * `.v` run then asks `Print Assumptions` about for every later theorem (v-file-derivations.ts).
 */
const READ_ONLY_QUERIES = new Set(['Print', 'Check', 'About', 'Locate', 'Search', 'SearchPattern', 'SearchRewrite', 'Compute', 'Eval', 'Test']);
const READ_ONLY_COMMANDS = new Set([...READ_ONLY_QUERIES, 'Register', 'Include']);

/** A query (`Print`, `Check`, `Search`…): it only prints, so a conversion's DEFINE leaves it out. */
export const isQuery = (pp: string): boolean => {
  // `Time Check t.` prints as `Check t.` does, and `Fail c.` undoes whatever `c` did: judged by what they wrap.
  const inner = failWrapped(pp) ?? timeWrapped(pp);
  if (inner !== undefined) return isQuery(inner);
  return READ_ONLY_QUERIES.has(headOf(pp)?.words[0] ?? '');
};
/** Commands that open a proof (tactic sentences follow until `Qed`/`Defined`). */
const PROOF_STARTERS = new Set(['Lemma', 'Theorem', 'Example', 'Fact', 'Remark', 'Corollary', 'Proposition', 'Property', 'Goal']);
/** The only commands allowed while a proof is open: the kernel checks everything else at `Qed`. */
// `Abort` drops the open proof: nothing enters the environment (public developments keep aborted attempts).
const IN_PROOF_COMMANDS = new Set(['Proof', 'Qed', 'Defined', 'Abort']);

/**
 * Judges untrusted text one sentence at a time, as Coq delimited and pretty-printed it (comments gone):
 * `judge` says why a sentence is refused, `finish` why the text may not end where it does. The caller
 * tells whether a proof is open (Coq's own answer, after each sentence ran).
 */
export class SentencePolicy {
  private readonly what: string;
  private openBlocks: OpenBlock[];
  private count = 0;

  /**
   * `blocks`: sections and modules an earlier DEFINE of the same document opened (this text may close
   * them, and may leave its own open when `mayLeaveOpen`: a later GOAL is then stated inside).
   */
  constructor(private readonly purpose: PolicyPurpose, blocks: readonly OpenBlock[] = [], private readonly mayLeaveOpen = false) {
    this.what = whatOf(purpose);
    this.openBlocks = [...blocks];
  }

  /**
   * Whether judging `pp` turns on where Coq is (an assumption is a field only inside a module type, a section
   * variable only inside a section, `Include` merges signatures only in a module type, `End` closes only a block the
   * text or its document opened): the caller then asks Coq
   * which blocks are open (coq-blocks.ts) and passes its answer to `judge`, which takes it over the text's reading.
   */
  asksWhere(pp: string, inProof: boolean): 'assumption' | 'end' | undefined {
    if (inProof || this.purpose === 'fidelity-context' || this.purpose === 'project') return undefined;
    const inner = failWrapped(pp) ?? timeWrapped(pp);
    if (inner !== undefined) return this.asksWhere(inner, inProof);
    const [first = '', second = ''] = headOf(pp)?.words ?? [];
    if (first === 'End') return 'end';
    return ASSUMPTIONS.has(first) || (first === 'Declare' && /^(Instance|Module)$/.test(second)) || first === 'Include' ? 'assumption' : undefined;
  }

  /** Why `pp` (not in a proof) would be refused outside every section and module type; judges nothing, tracks nothing. */
  refusalOutsideBlocks(pp: string): string | undefined {
    const inner = failWrapped(pp) ?? timeWrapped(pp);
    if (inner !== undefined) return this.refusalOutsideBlocks(inner);
    const refusal = checkSentence(pp, this.purpose, false, false);
    return refusal === undefined ? undefined : `parse error: ${this.what} ${refusal}`;
  }

  /** The sections and modules open after the sentences judged so far. */
  get blocks(): OpenBlock[] {
    return [...this.openBlocks];
  }

  /**
   * Why Coq's sentence `pp` is refused here, or undefined (then the block structure is tracked).
   * `tacticHead`: the name Coq's own parse says the sentence starts with as a tactic call (coq-sentence.ts).
   */
  judge(pp: string, inProof: boolean, tacticHead?: string, coqBlocks?: readonly Omit<OpenBlock, 'params'>[]): string | undefined {
    // `Fail c.` runs `c` and succeeds only if `c` fails, undoing whatever `c` did: it is judged by the
    // sentence it wraps (so `Fail Redirect …` is refused as `Redirect …` is), and Coq's answer decides the rest.
    const wrapped = failWrapped(pp);
    if (wrapped !== undefined) return this.judgeWrapped(wrapped, inProof, coqBlocks);
    // `Time c.` runs `c` as it is and prints how long it took: judged as `c` itself (`Time Redirect …` is refused
    // as `Redirect …` is). A proof's own end is never timed here: the run reads how each proof ends from its head.
    const timed = timeWrapped(pp);
    if (timed !== undefined) {
      const end = inProof ? PROOF_END_HEAD.exec(coqTrim(timed))?.[1] : undefined;
      if (end !== undefined) return `parse error: ${this.what} sentence not allowed: Time ${end} (time the tactics instead)`;
      return this.judge(timed, inProof, tacticHead, coqBlocks);
    }
    const where = coqBlocks ?? this.openBlocks;
    const refusal = inProof ? proofSentence(pp, this.purpose, tacticHead) : checkSentence(pp, this.purpose, where.some((b) => b.kind === 'section'), where.some((b) => b.kind === 'module type'));
    if (refusal !== undefined) return `parse error: ${this.what} ${refusal}`;
    const head = headOf(pp);
    // Text is pasted inside sections Arbor opened (a fidelity context's `Section arbor_ctx`): it may close only its own.
    // Asked of Coq where it could be (documents and preludes run inside no block of Arbor's: any Coq has open is the text's own).
    if (!inProof && head?.words[0] === 'End' && (coqBlocks ?? this.openBlocks).length === 0) return `parse error: ${this.what} closes a section or module it did not open`;
    this.count++;
    if (inProof) return undefined;
    this.openBlocks = afterSentence(this.openBlocks, pp);
    return undefined;
  }

  /** A sentence under `Fail`: judged as itself, but it changes no block structure (a failed command did nothing). */
  private judgeWrapped(pp: string, inProof: boolean, coqBlocks?: readonly Omit<OpenBlock, 'params'>[]): string | undefined {
    const nested = failWrapped(pp) ?? timeWrapped(pp);
    if (nested !== undefined) return this.judgeWrapped(nested, inProof, coqBlocks);
    const where = coqBlocks ?? this.openBlocks;
    const refusal = inProof ? proofSentence(pp, this.purpose) : checkSentence(pp, this.purpose, where.some((b) => b.kind === 'section'), where.some((b) => b.kind === 'module type'));
    if (refusal !== undefined) return `parse error: ${this.what} ${refusal}`;
    this.count++;
    return undefined;
  }

  /** Why the text may not end here (an open proof, section or module; an empty declaration), or undefined. */
  finish(inProof: boolean): string | undefined {
    if (inProof) return `parse error: ${this.what} leaves a proof open`;
    if (this.openBlocks.length > 0 && !this.mayLeaveOpen) return `parse error: ${this.what} leaves a ${this.openBlocks.at(-1)?.kind ?? ''} open`;
    if (this.count === 0 && this.purpose === 'define') return `parse error: empty ${this.what}`;
    return undefined;
  }
}

/**
 * A sentence inside an open proof: a tactic (bullets, braces, goal selectors, lower-case tactic names, a
 * capitalised name Coq's parse printed as a tactic call) is allowed — the kernel re-checks the proof term at
 * `Qed` — unless it gives up a goal; a command (upper-case, or attributes) only when it is
 * `Proof`/`Qed`/`Defined`: `Set`, `Redirect`, `Load`… run in proofs as anywhere else.
 */
function proofSentence(pp: string, purpose: PolicyPurpose, tacticHead?: string): string | undefined {
  const head = headOf(pp);
  const first = head?.words[0] ?? '';
  // A capitalised user tactic (`RelInstance_t.`) is a tactic when Coq's parse printed the sentence as a call
  // starting with that name: a command prints its head as keyword text instead, even when an Ltac of the same
  // name exists (`Ltac Show := idtac.` then `Show.` is still the command).
  const coqSaysTactic = tacticHead !== undefined && tacticHead === first && coqTrim(pp).startsWith(tacticHead);
  const readOnly = purpose === 'read-only';
  // A qualified name (`Nat.order.`, PeanoNat) is a tactic: no command is named by a path.
  const qualifiedTactic = readOnly && /^[\p{L}_][\p{L}\p{N}_']*(\.[\p{L}_][\p{L}\p{N}_']*)+$/u.test(first);
  const command = /^#\[/.test(coqTrim(pp)) || (/^\p{Lu}/u.test(first) && !qualifiedTactic && !coqSaysTactic);
  if (command) return (IN_PROOF_COMMANDS.has(first) || (readOnly && (first === 'Admitted' || READ_ONLY_QUERIES.has(first)))) && (head?.attributes.length ?? 0) === 0 ? undefined : `sentence not allowed: ${first || pp.slice(0, 20)} (inside a proof)`;
  // Read-only: a goal given up can never reach a `Qed` the kernel accepts; the proof ends `Admitted` or not at all.
  if (!readOnly && GIVING_UP.test(pp)) return `sentence not allowed: ${pp.replace(/\.$/, '').slice(0, 40)} (it gives up a goal)`;
  return undefined;
}

/** The sentence `Time` wraps (Coq's reprint: `Time` first), or undefined. */
function timeWrapped(pp: string): string | undefined {
  const m = new RegExp(`^${B}*Time${B}+([^]*)$`).exec(pp);
  return m ? (m[1] as string) : undefined;
}

/** The sentence `Fail` wraps (Coq's reprint: `Fail` first, after no attribute), or undefined. */
function failWrapped(pp: string): string | undefined {
  const m = new RegExp(`^${B}*Fail${B}+([^]*)$`).exec(pp);
  return m ? (m[1] as string) : undefined;
}

interface Head {
  /** The sentence's words after its attributes and prefixes. */
  words: string[];
  attributes: string[];
}

function headOf(sentence: string): Head | undefined {
  let rest = coqTrim(sentence);
  const attributes: string[] = [];
  for (;;) {
    const m = new RegExp(`^#\\[([^\\]]*)\\]${B}*`).exec(rest);
    if (!m) break;
    attributes.push(...(m[1] ?? '').split(/,(?![^(]*\))/).map(coqTrim).filter(Boolean));
    rest = rest.slice(m[0].length);
  }
  const words = rest.replace(/\.$/, '').split(BLANK_RUNS).filter(Boolean);
  let i = 0;
  while (PREFIXES.has(words[i] ?? '')) i++;
  return { words: words.slice(i), attributes };
}

function checkSentence(sentence: string, purpose: PolicyPurpose, inSection: boolean, inModuleType: boolean): string | undefined {
  const head = headOf(sentence);
  if (!head) return 'sentence not allowed';
  for (const a of head.attributes) if (!ATTRIBUTES.test(a)) return `attribute not allowed: #[${a}]`;
  // `Export Set …`/`Export Unset …` (Coq ≥ 8.15) set an option with export locality: judged as the option, never as module names.
  if ((head.words[0] === 'Export' || head.words[0] === 'Import') && /^(Set|Unset)$/.test(head.words[1] ?? '')) head.words.shift();
  const [first = '', second = ''] = head.words;
  // `Declare Instance x : C.` declares an axiom (an instance with no body), `Declare Module` a module of them.
  const assumes = ASSUMPTIONS.has(first) || (first === 'Declare' && /^(Instance|Module)$/.test(second));
  if (assumes) {
    if (purpose === 'fidelity-context' || purpose === 'project') return undefined;
    if (inSection && SECTION_ASSUMPTIONS.has(first)) return undefined;
    // A module type's parameters are the fields of a signature, never axioms: only `Declare Module` (refused
    // outside module types) or a module of that type can give them a value, and a module needs real ones.
    if (inModuleType) return undefined;
    return `sentence not allowed: ${first} (assumptions are not allowed here)`;
  }
  if (PROOF_STARTERS.has(first)) return undefined;
  if (purpose === 'read-only' && READ_ONLY_COMMANDS.has(first) && (first !== 'Register' || second !== 'Inline')) return undefined;
  // `Declare Left Step`/`Declare Right Step` (Init/Logic) name a lemma for the `stepl`/`stepr` tactics.
  if (purpose === 'read-only' && first === 'Declare' && /^(Left|Right)$/.test(second) && head.words[2] === 'Step') return undefined;
  // `Include` merges signatures inside a module type; inside a module, including a module type would assume its fields.
  if (first === 'Include' && inModuleType) return undefined;
  // Program's obligations and setoid/ring registrations open proofs or take proof terms: the kernel checks them.
  if (first === 'Next' && second === 'Obligation') return undefined;
  // The tactic Program tries on each obligation: what it proves, the kernel checks like any proof (and one
  // that gives up is refused, as `Hint Extern … => admit` is).
  if (first === 'Obligation' && second === 'Tactic') return GIVING_UP.test(sentence) || /\bshelve\b/.test(sentence) ? 'obligation tactic not allowed: it gives up goals' : undefined;
  if (first === 'Add' && /^(Parametric|Morphism|Relation|Setoid|Ring|Field)$/.test(second)) return undefined;
  if (!DECLARATIONS.has(first)) return `sentence not allowed: ${first || sentence.slice(0, 20)}`;
  const forbiddenSecond = FORBIDDEN_SECOND[first];
  if (forbiddenSecond && !forbiddenSecond.test(second)) return `sentence not allowed: ${first} ${second}`.trimEnd();
  // Silencing a warning (`Set Warnings "-notation-overridden"`, as teaching texts that rebind `/\` do) changes
  // only messages: what a redefined notation makes a statement mean is shown by the statement judge.
  if (first === 'Set' && second === 'Warnings') return SILENCED_WARNINGS.test(head.words.slice(2).join(' ')) ? undefined : `option not allowed: ${head.words.slice(1).join(' ')}`;
  // How far functor applications inline their fields (PeanoNat): elaboration only, the kernel checks the result.
  if (purpose === 'read-only' && first === 'Set' && second === 'Inline' && head.words[2] === 'Level' && /^\d+$/.test(head.words[3] ?? '') && head.words.length === 4) return undefined;
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
