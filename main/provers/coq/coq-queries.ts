import { COQ_BLANK, coqTrim } from './coq-sentence.ts';
import type { AboutAnswer, CheckAnswer, EnvironmentEntry, LocateAnswer, PrintAnswer } from '../../../shared/protocol/query-answer.ts';

/**
 * Reads what Coq prints for `Search`, `Check`, `About`, `Print` and `Locate` (coqidetop answers a query
 * with notice-level messages) into the protocol's structured answers.
 */

/** Coq's layout blanks only (coq-sentence.ts): a no-break space is part of a name (`and P`, `Top.x `). */
const B = `[${COQ_BLANK}]`;
const BLANK_RUNS = new RegExp(`${B}+`, 'g');
const flat = (s: string): string => coqTrim(s.replace(BLANK_RUNS, ' '));
const ABOUT_HEAD = new RegExp(`^[^${COQ_BLANK}]+${B}*:${B}*([^]*)$`);
const CHECK_ANSWER = new RegExp(`^([^]*?)\\n${B}+:${B}([^]*)$`);
const EXPANDS = new RegExp(`Expands to:${B}*([^${COQ_BLANK}]+)${B}+([^${COQ_BLANK}]+)`);

/** The interactive module a coqidetop document lives in: its objects are the document's own. */
const DOCUMENT_MODULE = 'Top';

/** `Coq.Lists.List.app_length` → `Coq.Lists.List`; the document's own objects → `document`. */
export function moduleOf(fullName: string): string | undefined {
  const dot = fullName.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const module = fullName.slice(0, dot);
  return module === DOCUMENT_MODULE || module.startsWith(`${DOCUMENT_MODULE}.`) ? 'document' : module;
}

/** One `Search` result per message: `name: type` (the type may continue on indented lines). */
export function parseSearchResult(text: string): EnvironmentEntry | undefined {
  const m = new RegExp(`^([^${COQ_BLANK}:]+)${B}*:${B}([^]*)$`).exec(coqTrim(text));
  if (!m) return undefined;
  return { name: m[1] as string, type: flat(m[2] as string) };
}

/** `term\n     : type` */
export function parseCheck(text: string): CheckAnswer | undefined {
  const m = CHECK_ANSWER.exec(coqTrim(text));
  if (!m) return undefined;
  return { term: flat(m[1] as string), type: flat(m[2] as string) };
}

/**
 * `name : type` (or `name :\ntype`), a blank line, then facts such as `name is opaque` and
 * `Expands to: Constant Coq.Lists.List.app_length`.
 */
export function parseAbout(text: string, name: string): AboutAnswer | undefined {
  const [head = '', ...rest] = coqTrim(text).split(/\n[ \t\r]*\n/);
  const m = ABOUT_HEAD.exec(coqTrim(head));
  if (!m) return undefined;
  const facts = rest.join('\n');
  const answer: AboutAnswer = { name, type: flat(m[1] as string) };
  const expands = EXPANDS.exec(facts);
  if (expands) {
    answer.kind = expands[1] as string;
    answer.fullName = expands[2] as string;
    const module = moduleOf(answer.fullName);
    if (module !== undefined) answer.module = module;
  } else if (/is a constructor/.test(facts) || /Constructor/.test(facts)) answer.kind = 'Constructor';
  if (/ is transparent/.test(facts)) answer.transparent = true;
  else if (/ is opaque/.test(facts)) answer.transparent = false;
  return answer;
}

/** `name = body\n     : type` for a definition; anything else (inductive types, axioms) keeps its text. */
export function parsePrint(text: string, name: string): PrintAnswer {
  const main = coqTrim(text).split(/\n[ \t\r]*\n/)[0] ?? '';
  const def = new RegExp(`^[^${COQ_BLANK}]+${B}*=${B}*([^]*?)\\n${B}+:${B}([^]*)$`).exec(main);
  if (def) return { name, body: flat(def[1] as string), type: flat(def[2] as string), text: coqTrim(text) };
  const axiom = new RegExp(`^\\*{3}${B}*\\[${B}*[^${COQ_BLANK}]+${B}*:${B}*([^]*?)${B}*\\]$`).exec(main);
  if (axiom) return { name, type: flat(axiom[1] as string), text: coqTrim(text) };
  return { name, text: coqTrim(text) };
}

/** One object per line: `Constant Coq.Lists.List.app_length`, `Notation "x ++ y" := …`, `Inductive Top.tree`. */
export function parseLocate(text: string, name: string): LocateAnswer {
  // A `(shorter name to refer to it …)` remark continues the line before it.
  const results = coqTrim(text).replace(/\n[ \t\r]+\(shorter name/g, ' (shorter name').split('\n').map(coqTrim).filter((l) => l !== '' && !/^No object/.test(l))
    .map((l) => {
      const m = new RegExp(`^([^${COQ_BLANK}]+)${B}+([^]*?)(${B}+\\(shorter name to refer to it in current context is [^${COQ_BLANK}]+\\))?$`).exec(l);
      return { kind: m?.[1] ?? 'Object', name: flat(m?.[2] ?? l) };
    });
  return { name, results };
}

/** The first object `Locate` lists (the one the name refers to), as `Constant`/`Inductive`/… and full name. */
export function firstLocated(text: string): { kind: string; fullName: string } | undefined {
  for (const r of parseLocate(text, '').results) {
    if (r.kind === 'Notation' || r.kind === 'Ltac' || r.kind === 'Module') continue;
    return { kind: r.kind, fullName: r.name };
  }
  return undefined;
}
