import type { EnvironmentEntry } from '../../../shared/protocol/query-answer.ts';
import { CoqCrash, type CoqideTopClient } from './coqidetop-client.ts';
import { parseAbout } from './coq-queries.ts';
import { COQ_BLANK, COQ_NAME, coqTrim, NAME_PART, NAME_START } from './coq-sentence.ts';
import { notices } from './statement-reading.ts';

/** A blank, a run of blanks, a name and a qualified name as Coq reads them (coq-sentence.ts): `and P` is one name. */
const B = `[${COQ_BLANK}]`;
const BLANK_RUNS = new RegExp(`${B}+`, 'g');
const flat = (s: string): string => coqTrim(s.replace(BLANK_RUNS, ' '));
const SECTION = new RegExp(`^Section${B}+([^${COQ_BLANK}.]+)${B}*\\.$`);
const BODY = new RegExp(`:=${B}*([^]*?)\\.?${B}*$`);
const NAME = `(${COQ_NAME})`;
const QUALIFIED = `([${NAME_START}][${NAME_PART}.]*)`;
const HEAD = new RegExp(`^(Definition|Fixpoint|CoFixpoint|Function|Inductive|CoInductive|Variant|Record|Structure|Class|Instance|Lemma|Theorem|Corollary|Fact|Remark|Example|Let|Abbreviation)${B}+${NAME}`);
const WITH = new RegExp(`${B}with${B}+${NAME}`, 'g');
const PREFIX = new RegExp(`^(Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)${B}+`);
const PRINTED_HEAD = new RegExp(`^${B}*(?:(?:(?:Co)?Inductive|Variant|Record|Structure|Class)${B}+)?${QUALIFIED}`);
const CONSTRUCTOR = new RegExp(`^${B}*${QUALIFIED}${B}*:${B}*([^]*)$`);
const RECORD = new RegExp(`^${B}*(?:Record|Structure|Class)${B}[^]*?:=${B}*${QUALIFIED}${B}*\\{([^]*)\\}${B}*\\.?${B}*$`);
const FIELD = new RegExp(`^${B}*${QUALIFIED}${B}*:`);

/**
 * What declarations added: the names their heads declare (and an inductive type's constructors), with types.
 * Each name is first asked where its declaration is complete (after its own sentence, or after the proof it
 * opened): at the tip, a name declared inside a module closed since (`Module M. Definition x …. End M.`) is
 * another object or none (`x` the document's earlier `x`, `nat` the library's). Its kernel name, asked at
 * the tip, then gives its type as it is now (a section's definitions take the section's variables).
 */
export async function declaredBy(client: CoqideTopClient, sentences: readonly { pp: string; stateId: number; proofOpen?: boolean }[], timeoutMs: number): Promise<EnvironmentEntry[]> {
  const complete = (i: number): number => (sentences.slice(i).find((s) => s.proofOpen !== true) ?? sentences.at(-1))?.stateId ?? client.tip;
  const named = sentences.flatMap((s, i) => declaredNames(s.pp).map((name) => ({ name, at: complete(i) })));
  const names = named.map((n) => n.name);
  // The queries of one exchange share the request's limit: a fixed few seconds were too little for the
  // `About` of 500 lemmas declared at once on a loaded machine, and the interrupt that followed killed the prover.
  const ask = (query: string, at: number): Promise<string> => client.queryJoined(query, at, timeoutMs).then(notices, () => '');
  // Every name's `About` where it was declared in one exchange, then each kernel name's `About` (and an
  // inductive's `Print`) at the tip in one more.
  const where = await Promise.all(named.map(({ name: n, at }) => (n.startsWith('"') ? undefined : ask(`About ${n}.`, at).then((text) => parseAbout(text, n)))));
  const tip = client.tip;
  // A section's path is part of a kernel name only while it is open: those this text opens are left out.
  const sections = new Set(sentences.map((s) => SECTION.exec(s.pp)?.[1]).filter((x) => x !== undefined));
  const atTip = (full: string): string => full.split('.').filter((c, k, all) => k === 0 || k === all.length - 1 || !sections.has(c)).join('.');
  const kernel = (i: number): string | undefined => {
    const full = where[i]?.fullName;
    return full !== undefined ? atTip(full) : where[i] === undefined ? undefined : names[i];
  };
  // Asked at the tip; when the name is not there as it was (a section opened before this text), as it was.
  // Every name asked at the tip already (a DEFINE of one sentence, the usual case): nothing more to ask.
  const abouts = named.every((n) => n.at === tip) ? where : await Promise.all(where.map((w, i) => {
    const full = kernel(i);
    return full === undefined ? undefined : ask(`About ${full}.`, tip).then((text) => parseAbout(text, names[i] as string) ?? w);
  }));
  const printed = await Promise.all(abouts.map((about, i) => (about?.kind === 'Inductive' ? ask(`Print Term ${kernel(i) as string}.`, tip) : undefined)));
  // A record prints `Record R : Set := mkR { f : T; … }`: its constructor and projections, asked at the tip in one more exchange.
  const fields = printed.map((text) => (text === undefined ? [] : recordParts(text)));
  const partAbouts = await Promise.all(fields.map((parts) => Promise.all(parts.map((p) => ask(`About ${p}.`, tip).then((t) => parseAbout(t, p))))));
  // A query that failed reads as nothing declared; a prover that died meanwhile is the request's crash, not the next one's.
  if (!client.alive) throw new CoqCrash('coqidetop died while reading what the declarations declared');
  const out: EnvironmentEntry[] = [];
  names.forEach((n, i) => {
    const about = abouts[i];
    if (n.startsWith('"')) out.push({ name: n, type: '', kind: 'Notation', module: 'document' });
    else if (about) {
      out.push(entryOf(about));
      const text = printed[i];
      if (text !== undefined) for (const c of constructorsOf(text, n)) out.push({ ...c, kind: 'Constructor', module: 'document' });
      (partAbouts[i] ?? []).forEach((part, k) => {
        if (part !== undefined) out.push({ ...entryOf(part), ...(k === 0 ? { kind: 'Constructor' } : {}) });
      });
    }
  });
  return out;
}

/** The names a declaration's head declares (`Definition x`, `Inductive t … with u`, `Notation "…"`), from the one sentence reader. */
export const declaredNames = (sentence: string): string[] => {
  const text = sentence.replace(new RegExp(`^${B}*(#\\[[^\\]]*\\]${B}*)*`), '').replace(PREFIX, '');
  const notation = new RegExp(`^(?:Notation|Infix|Reserved${B}+Notation)${B}+("[^"]*")`).exec(text);
  if (notation) return [notation[1] as string];
  const head = HEAD.exec(text);
  if (!head) return [];
  const names = [head[2] as string];
  if (/^(Fixpoint|CoFixpoint|Inductive|CoInductive)$/.test(head[1] as string)) {
    for (const m of text.matchAll(WITH)) names.push(m[1] as string);
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
  // At the tip a type declared in a module closed since prints qualified (`M.t`), and so do its constructors.
  const headName = (block: string): string | undefined => PRINTED_HEAD.exec(block)?.[1];
  const block = name === undefined ? blocks[0] : blocks.find((b) => { const h = headName(b); return h === name || h?.endsWith(`.${name}`); });
  if (block === undefined) return [];
  const m = BODY.exec(block);
  if (!m) return [];
  return (m[1] as string).split(new RegExp(`${B}\\|${B}`)).map((c) => CONSTRUCTOR.exec(c))
    .filter((c): c is RegExpExecArray => c !== null).map((c) => ({ name: c[1] as string, type: flat(c[2] as string) }));
};

/** `Record R : Set := mkR { f1 : nat;  f2 : bool }.` → `mkR`, `f1`, `f2` (each then asked about: a field type's `;` never yields a name Coq knows). */
const recordParts = (printed: string): string[] => {
  const m = RECORD.exec(printed.split(/\n[ \t]*\n/)[0] ?? '');
  if (!m) return [];
  const fields = (m[2] as string).split(';').map((f) => FIELD.exec(f)?.[1]).filter((f) => f !== undefined);
  return [m[1] as string, ...fields];
};

const entryOf = (a: ReturnType<typeof parseAbout> & object): EnvironmentEntry => {
  const e: EnvironmentEntry = { name: a.name, type: a.type };
  if (a.module !== undefined) e.module = a.module;
  if (a.kind !== undefined) e.kind = a.kind;
  return e;
};
