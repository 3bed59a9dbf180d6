import { sentenceSpans } from './coq-sentence.ts';
import { quoteArgument } from '../../../shared/protocol/quote-argument.ts';
import { inParentheses, untimed } from '../../../shared/protocol/v-file-convert.ts';
import { COQ_BLANK, COQ_NAME, coqFlat, coqTrim, NAME_PART } from '../../../shared/protocol/coq-lexical.ts';

/**
 * A `.v` file as the items of an Arbor document (issue 24): declarations become `DEFINE`, each theorem
 * proved with `Qed` becomes `GOAL name "∀ binders, statement"` with its reference proof's tactics (bullets
 * and braces dropped: without them Coq runs each tactic on the first goal, as it does with them), and
 * sentences that change nothing (`Check`, `Compute`, `Fail …`, an `Abort`ed attempt) are skipped with
 * the reason. Only for the user's own files and public developments read as trusted text: the
 * DEFINEs go through Coq's delimiting and the policy like any client's text.
 */

export type ConvertedItem =
  | { kind: 'define'; text: string; line: number }
  | { kind: 'proof'; name?: string; statement: string; tactics: string[]; line: number }
  | { kind: 'skipped'; text: string; line: number; reason: string };

const THEOREMS = /^(Theorem|Lemma|Fact|Remark|Corollary|Proposition|Property|Example|Definition|Goal)$/;
/** Commands that read the environment and change nothing: no document item. */
const QUERIES = /^(Check|Compute|Eval|Print|Locate|Search|SearchPattern|SearchRewrite|About|Show|Fail|Test|Recursive|Extraction|Redirect)$/;
/** `Time` and `Timeout n` only measure or limit the command they wrap: the command is what enters the document. */
// Coq's blanks and names (shared/protocol/coq-lexical.ts): a no-break space is part of a name (`Theorem t : \u00a0True.` states `\u00a0True`).
const B = `[${COQ_BLANK}]`;
const CONTROL = new RegExp(`^(?:(?:Time|Timeout${B}+\\d+)${B}+)+`);
const PREFIX = new RegExp(`^(?:#\\[[^\\]]*\\]${B}*)*((?:Local|Global|Polymorphic|Monomorphic|Program)${B}+)*`);
const ENDS = new RegExp(`^(Qed|Defined|Admitted|Abort|Save)(?![${NAME_PART}])`);
const COQ_BLANK_CHAR = new RegExp(B);
const BLANK_RUNS = new RegExp(`${B}+`);
const BINDER_NAMES = new RegExp(`^(?:${COQ_NAME}|${B})*$`);
const BULLETS = new RegExp(`^(?:[-+*]+${B}+|[{}]${B}*)+`);
const WORD = new RegExp(`^[^${COQ_BLANK}]+`);
const END_WORD = new RegExp(`^[^${COQ_BLANK}]+?(?=\\.|${B}|$)`);
const PROOF_WORD = new RegExp(`^Proof(?![${NAME_PART}])`);
const PROOF_TERM = new RegExp(`^Proof${B}+(?!(?:with|using)(?![${NAME_PART}]))([^]+?)\\.?$`);

/** `name binders : type` → [name, binders, type] at the first `:` outside brackets (not `:=`/`::`). */
export function splitHead(rest: string): { name: string; binders: string; type: string; body: boolean } | undefined {
  const m = new RegExp(`^(${COQ_NAME})`).exec(rest);
  if (!m) return undefined;
  const name = m[1] as string;
  let depth = 0;
  for (let i = name.length; i < rest.length; i++) {
    const c = rest[i] as string;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && c === ':' && rest[i + 1] === '=') return { name, binders: coqTrim(rest.slice(name.length, i)), type: '', body: true };
    else if (depth === 0 && c === ':' && rest[i + 1] !== ':' && rest[i - 1] !== ':') {
      const after = rest.slice(i + 1);
      return { name, binders: coqTrim(rest.slice(name.length, i)), type: coqTrim(after), body: topLevelAssign(after) };
    }
  }
  return { name, binders: coqTrim(rest.slice(name.length)), type: '', body: topLevelAssign(rest) };
}

/** Whether `:=` occurs outside brackets (a body), not inside a record `{| x := … |}` or a `let`. */
function topLevelAssign(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && c === ':' && text[i + 1] === '=' && !/\blet\b[^]*$/.test(text.slice(0, i))) return true;
  }
  return false;
}

/**
 * The names a theorem's binders bind (`n m`, `(x y : A)`, `{A}`): a theorem stated with
 * binders has them in its context when the proof starts, so the converted proof begins with
 * `intros` of exactly these. Undefined when a binder is a pattern (`'(x, y)`) or generalised (`` `{C A} ``).
 */
export function binderNames(binders: string): string[] | undefined {
  const names: string[] = [];
  let i = 0;
  const ident = new RegExp(COQ_NAME, 'y');
  while (i < binders.length) {
    const c = binders[i] as string;
    if (COQ_BLANK_CHAR.test(c)) {
      i++;
      continue;
    }
    // A generalised binder (`` `{C A} ``) may bind names Coq makes up.
    if (c === '`' || c === '!') return undefined;
    if ('({['.includes(c)) {
      let depth = 0;
      let j = i;
      for (; j < binders.length; j++) {
        if ('({['.includes(binders[j] as string)) depth++;
        else if (')}]'.includes(binders[j] as string) && --depth === 0) break;
      }
      const inner = binders.slice(i + 1, j);
      const colon = inner.search(/:(?!=)/);
      const head = coqTrim(colon < 0 ? inner : inner.slice(0, colon));
      if (head === '' || !BINDER_NAMES.test(head)) return undefined;
      names.push(...head.split(BLANK_RUNS));
      i = j + 1;
      continue;
    }
    ident.lastIndex = i;
    const m = ident.exec(binders);
    if (!m) return undefined;
    names.push(m[0]);
    i += m[0].length;
  }
  return names;
}

// Coq's blanks only: a no-break space inside a name stays (`and P` is not `and P`).
const flat = coqFlat;
/** A proof sentence without the bullets and braces before it (`- {`, `}`, `+`, `**`). */
const unbulleted = (s: string): string => coqTrim(s.replace(BULLETS, ''));

export function vToDocument(text: string): ConvertedItem[] {
  const spans = sentenceSpans(text);
  // Line numbers counted once, forward (spans come in order): slicing the text per sentence was quadratic.
  let counted = 0;
  let lineAtCounted = 1;
  const lineOf = (offset: number): number => {
    for (; counted < offset; counted++) if (text.charCodeAt(counted) === 10) lineAtCounted++;
    return lineAtCounted;
  };
  const items: ConvertedItem[] = [];
  for (let i = 0; i < spans.length; i++) {
    const first = i;
    const span = spans[i] as (typeof spans)[number];
    const sentence = flat(span.text).replace(CONTROL, '');
    // A span starts where the previous one ended: its line is that of its first non-blank character.
    let lead = span.start;
    while (lead < span.end && COQ_BLANK_CHAR.test(text[lead] as string)) lead++;
    const line = lineOf(lead);
    const rest = sentence.replace(PREFIX, '');
    const word = WORD.exec(rest)?.[0] ?? '';
    if (QUERIES.test(word)) {
      items.push({ kind: 'skipped', text: sentence, line, reason: `${word}: a query or an expected failure, changes nothing` });
      continue;
    }
    const head = THEOREMS.test(word) ? (word === 'Goal' ? { name: '', binders: '', type: coqTrim(rest.slice(4).replace(/\.$/, '')), body: false } : splitHead(coqTrim(rest.slice(word.length)).replace(/\.$/, ''))) : undefined;
    if (head === undefined || head.body || head.type === '') {
      // A declaration; one that opens a proof (an Instance, a Definition by tactics) takes its proof along.
      const proof = [sentence];
      if (/^(Instance|Next|Add|Fixpoint|CoFixpoint)$/.test(word) && !/:=/.test(rest)) {
        while (i + 1 < spans.length && !ENDS.test(unbulleted(flat((spans[i] as typeof span).text)))) proof.push(flat((spans[++i] as typeof span).text));
      }
      // An admitted exercise definition (`Fixpoint get … : V. Admitted.`) is an assumption, skipped as an admitted lemma is.
      const ending = proof.length > 1 ? END_WORD.exec(unbulleted(proof.at(-1) as string))?.[0] : undefined;
      if (ending === 'Admitted') {
        const name = /^\S+\s+([^\s(:{]+)/.exec(rest)?.[1] ?? word;
        items.push({ kind: 'skipped', text: sentence, line, reason: `${name} is Admitted, not proved: Arbor never assumes an unproved lemma (items using it fail until it is proved)` });
        continue;
      }
      items.push({ kind: 'define', text: proof.join(' '), line });
      continue;
    }
    const tactics: string[] = [];
    let end = '';
    while (i + 1 < spans.length) {
      const t = unbulleted(flat((spans[++i] as typeof span).text));
      if (ENDS.test(t)) {
        end = END_WORD.exec(t)?.[0] ?? t;
        break;
      }
      // `Proof term.` gives the proof as a term and ends it.
      const term = PROOF_TERM.exec(t);
      if (term) {
        tactics.push(`exact (${term[1] as string})`);
        end = 'Qed';
        break;
      }
      if (t === '' || PROOF_WORD.test(t)) continue;
      tactics.push(untimed(t).replace(/\.$/, ''));
    }
    const statement = head.binders === '' ? head.type : `forall ${head.binders}, ${head.type}`;
    const introduced = binderNames(head.binders);
    if (introduced === undefined) {
      items.push({ kind: 'skipped', text: sentence, line, reason: 'a binder Arbor cannot name (a pattern or generalised binder)' });
      continue;
    }
    if (introduced.length > 0) tactics.unshift(`intros ${introduced.join(' ')}`);
    if (end === 'Abort') items.push({ kind: 'skipped', text: sentence, line, reason: 'an aborted attempt: nothing enters the environment' });
    // An admitted lemma is an assumption: never a DEFINE (the policy would refuse it) nor a proved GOAL.
    else if (end === 'Admitted') items.push({ kind: 'skipped', text: sentence, line, reason: `${head.name === '' ? 'a Goal' : head.name} is Admitted, not proved: Arbor never assumes an unproved lemma (items using it fail until it is proved)` });
    else if (end === 'Qed' || end === 'Save') items.push({ kind: 'proof', ...(head.name !== '' ? { name: head.name } : {}), statement, tactics, line });
    else {
      // `Defined` keeps the proof term transparent (later items may compute with it): a declaration, proof and all.
      const body = [sentence, ...spans.slice(first + 1, i + 1).map((s) => flat(s.text))].join(' ');
      items.push({ kind: 'define', text: body, line });
    }
  }
  return items;
}

/** The protocol lines of an item without the NEXTs a runner adds where a tactic closed a goal that was not the last. */
export function itemLines(item: ConvertedItem): string[] {
  if (item.kind === 'skipped') return [];
  if (item.kind === 'define') return [`DEFINE ${quoteArgument(item.text)}`];
  return [`GOAL ${item.name !== undefined ? `${item.name} ` : ''}${quoteArgument(item.statement)}`, ...item.tactics.map((t) => `APPLY ${inParentheses(t)}`), 'END'];
}
