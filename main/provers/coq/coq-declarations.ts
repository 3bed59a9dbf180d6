import type { EnvironmentEntry } from '../../../shared/protocol/query-answer.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';
import { parseAbout } from './coq-queries.ts';
import { notices } from './statement-reading.ts';

/** Limit for a query: it runs no tactic. */
const ROUND_TRIP_MS = 5000;
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** What declarations added (at the tip): the names their heads declare (and an inductive type's constructors), with types. */
export async function declaredBy(client: CoqideTopClient, sentences: string[]): Promise<EnvironmentEntry[]> {
  const names = sentences.flatMap(declaredNames);
  // Every name's `About` in one exchange, then every inductive's `Print` in one more.
  const ask = (query: string): Promise<string> => client.queryJoined(query, client.tip, ROUND_TRIP_MS).then(notices, () => '');
  const abouts = await Promise.all(names.map((n) => (n.startsWith('"') ? undefined : ask(`About ${n}.`).then((text) => parseAbout(text, n)))));
  const printed = await Promise.all(abouts.map((about, i) => (about?.kind === 'Inductive' ? ask(`Print ${names[i]}.`) : undefined)));
  const out: EnvironmentEntry[] = [];
  names.forEach((n, i) => {
    const about = abouts[i];
    if (n.startsWith('"')) out.push({ name: n, type: '', kind: 'Notation', module: 'document' });
    else if (about) {
      out.push(entryOf(about));
      const text = printed[i];
      if (text !== undefined) for (const c of constructorsOf(text, n)) out.push({ ...c, kind: 'Constructor', module: 'document' });
    }
  });
  return out;
}

/** The names a declaration's head declares (`Definition x`, `Inductive t … with u`, `Notation "…"`), from the one sentence reader. */
export const declaredNames = (sentence: string): string[] => {
  const text = sentence.replace(/^\s*(#\[[^\]]*\]\s*)*/, '').replace(/^(Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)\s+/g, '');
  const notation = /^(?:Notation|Infix|Reserved Notation)\s+("[^"]*")/.exec(text);
  if (notation) return [notation[1] as string];
  const head = /^(Definition|Fixpoint|CoFixpoint|Function|Inductive|CoInductive|Variant|Record|Structure|Class|Instance|Lemma|Theorem|Corollary|Fact|Remark|Example|Let|Abbreviation)\s+([\p{L}_][\p{L}\p{N}_']*)/u.exec(text);
  if (!head) return [];
  const names = [head[2] as string];
  if (/^(Fixpoint|CoFixpoint|Inductive|CoInductive)$/.test(head[1] as string)) {
    for (const m of text.matchAll(/\swith\s+([\p{L}_][\p{L}\p{N}_']*)/gu)) names.push(m[1] as string);
  }
  return names;
};

/**
 * `Inductive tree : Set :=  Leaf : tree | Node : tree -> nat -> tree -> tree.` → its constructors and their types.
 * A mutual block prints every type (`Inductive t … := … \n  with u … := …`): only `name`'s own constructors (the
 * first type's when no name is given), never the next type's head or constructors.
 */
export const constructorsOf = (printed: string, name?: string): EnvironmentEntry[] => {
  const blocks = (printed.split(/\n[ \t]*\n/)[0] ?? '').split(/\n[ \t]*with[ \t]+/);
  const headName = (block: string): string | undefined => /^\s*(?:(?:(?:Co)?Inductive|Variant|Record|Structure|Class)\s+)?([\p{L}_][\p{L}\p{N}_']*)/u.exec(block)?.[1];
  const block = name === undefined ? blocks[0] : blocks.find((b) => headName(b) === name);
  if (block === undefined) return [];
  const m = /:=\s*([\s\S]*?)\.?\s*$/.exec(block);
  if (!m) return [];
  return (m[1] as string).split(/\s\|\s/).map((c) => /^\s*([\p{L}_][\p{L}\p{N}_']*)\s*:\s*([\s\S]*)$/u.exec(c))
    .filter((c): c is RegExpExecArray => c !== null).map((c) => ({ name: c[1] as string, type: flat(c[2] as string) }));
};

const entryOf = (a: ReturnType<typeof parseAbout> & object): EnvironmentEntry => {
  const e: EnvironmentEntry = { name: a.name, type: a.type };
  if (a.module !== undefined) e.module = a.module;
  if (a.kind !== undefined) e.kind = a.kind;
  return e;
};
