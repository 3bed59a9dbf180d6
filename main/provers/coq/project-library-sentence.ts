import { commentEnd, coqTrim } from './coq-sentence.ts';
import { CoqFailure, type CoqideTopClient } from './coqidetop-client.ts';

/**
 * Coq 8.16's import categories that change how a text reads: a project module imported without them
 * brings its names (`double`) into the clean environment, never its notations, coercions, canonical
 * structures or hints (a trusted library's `Notation "'False'" := True` must not read the same there).
 */
const READING_CATEGORIES = 'notations, coercions, canonicals, hints, ltac.notations';
/** Libraries the clean environment imports whole: Coq's own and CoqHammer's, as without a project. */
const STANDARD_ROOT = /^(?:Coq|Hammer)\./;
const REQUIRE = /^(?:From (\S+) )?Require(?: (Import|Export))?((?: \S+)+)\.$/;
const IMPORT = /^(?:Import|Export)((?: \S+)+)\.$/;

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

/** The module's full name (`Locate Module`), or undefined when nothing by that name is loaded. */
async function locateModule(client: CoqideTopClient, name: string, ms: number): Promise<string | undefined> {
  const text = notices(await client.query(`Locate Module ${name}.`, client.tip, ms).catch(() => []));
  return /^Module ([^ \t\r\n]+)/.exec(coqTrim(text))?.[1];
}

async function importModules(client: CoqideTopClient, modules: string[], from: string | undefined, ms: number): Promise<void> {
  for (const m of modules) {
    const full = (from !== undefined ? await locateModule(client, `${from}.${m}`, ms) : undefined) ?? (await locateModule(client, m, ms));
    if (full === undefined) throw new CoqFailure(`no module ${m}`, undefined, []);
    await client.addAndGoals(STANDARD_ROOT.test(full) ? `Import ${full}.` : `Import -(${READING_CATEGORIES}) ${full}.`, ms);
  }
}

/**
 * Runs one of the document's library sentences (normalised by `librarySentences`) in a clean environment
 * that has a trusted project's load paths: `Require` loads as written; each imported module is located
 * and, unless it is Coq's or CoqHammer's, imported without the categories above. Throws CoqFailure when
 * any part fails (the caller goes back to the state before the sentence).
 */
export async function runProjectLibrarySentence(client: CoqideTopClient, sentence: string, ms: number): Promise<void> {
  const required = REQUIRE.exec(sentence);
  if (required) {
    const [, from, imports, modules = ''] = required;
    await client.addAndGoals(`${from !== undefined ? `From ${from} ` : ''}Require${modules}.`, ms);
    if (imports !== undefined) await importModules(client, modules.trim().split(' '), from, ms);
    return;
  }
  const imported = IMPORT.exec(sentence);
  if (imported) return importModules(client, (imported[1] ?? '').trim().split(' '), undefined, ms);
  await client.addAndGoals(sentence, ms);
}

/** Identifier tokens of a statement's text outside comments and strings (`(* x *)` and `"x"` name nothing). */
export function writtenNames(text: string): Set<string> {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('(*', i)) {
      i = commentEnd(text, i);
      out += ' ';
    } else if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      i = close < 0 ? text.length : close + 1;
      out += ' ';
    } else out += text[i++];
  }
  return new Set(out.match(/[\p{L}_][\p{L}\p{N}_']*/gu) ?? []);
}
