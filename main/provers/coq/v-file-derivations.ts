import type { ContextEntry } from '../../../shared/proof-tree/proof-state.ts';
import type { VFileProgress, VFileReport, VFileSkipped, VFileTheoremReport, VGoal, VSentence, VTheorem } from '../../../shared/derivation/v-file-derivation.ts';
import { coqCode, derivationSteps, recordedSteps, theoremsOf } from '../../../shared/derivation/v-file-derivation.ts';
import type { Converted } from '../../../shared/protocol/v-file-convert.ts';
import { convertTheorem, defineLine } from '../../../shared/protocol/v-file-convert.ts';
import { admittedReliance, kernelNameAt, projectLibraries, type AdmittedConstant } from './admitted-reliance.ts';
import { CoqideTopClient, CoqTimeout } from './coqidetop-client.ts';
import type { ClientOptions } from './coqidetop-client.ts';
import type { ProjectArgs } from '../../shell/prover-session.ts';
import { splitHyp, type LetTypes } from './coq-hyps.ts';
import { guessKind } from './context-kind.ts';
import { COQ_BLANK, NAME_PART, NAME_START, nextCoqSentence, SentenceParseError } from './coq-sentence.ts';
import { blockEffect, changesBlocks, type OpenBlock, withoutLeadingComments, withoutModuleType } from './document-blocks.ts';
import { coqOpenBlocks } from './coq-blocks.ts';
import { isQualid, sectionVariableFromLocate } from './assumptions.ts';
import { hasArborPlugin, letTypesAt, readArborStatement, startWithArborPlugin } from './arbor-plugin.ts';
import { typeFromCheck } from './statement-reading.ts';
import { isQuery, LIMIT_BYTES, SentencePolicy } from './vernacular-policy.ts';
import type { RawGoal } from './xml-protocol.ts';

export type { VFileProgress, VFileReport, VFileTheoremReport };

/** A theorem's own name (`Lemma foo …`), for progress only (the report reads names from the theorems). */
/** Coq's blanks and names (coq-sentence.ts): `Theorem foo\u00a0 :` opens `foo\u00a0`, never `foo`. */
const OPENED = new RegExp(
  `^(?:#\\[[^\\]]*\\][${COQ_BLANK}]*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program)[${COQ_BLANK}]+)*(?:Theorem|Lemma|Fact|Remark|Corollary|Proposition|Property|Example)[${COQ_BLANK}]+([${NAME_START}][${NAME_PART}.]*)`,
);

/**
 * Opening a `.v` file as derivations: its own sentences, delimited by Coq (`Annotate`) and judged by the
 * vernacular policy as a document's declarations are, run one by one in a sandboxed coqidetop (with the
 * trusted project's load paths, if any); after each, every goal of the proof (unfocused ones too) is read.
 * The pure part (shared/derivation/v-file-derivation.ts) turns that into the engine's derivation record,
 * and shared/protocol/v-file-convert.ts turns a theorem into an Arbor document item. Nothing is written
 * anywhere: the file is only read.
 */

export interface VFileOptions {
  /** Per sentence. */
  timeoutMs: number;
  /** The trusted project's load paths (its directories become readable in the sandbox). */
  project?: ProjectArgs;
  /** Further coqidetop options (tests). */
  client?: ClientOptions;
  /** The whole run's limit (wall clock): past it, running stops and what was read is kept. */
  wallClockMs?: number;
  /** Cancel: running stops before the next sentence and what was read is kept. */
  signal?: AbortSignal;
  /** Called after each sentence (and once at the end of reading). */
  onProgress?: (p: VFileProgress) => void;
}

/**
 * Line numbers of offsets that only grow (sentences run in order), counted forward once: counting from
 * the start for every sentence was quadratic in the file's length.
 */
const lineCounter = (text: string): ((offset: number) => number) => {
  let at = 0;
  let line = 1;
  return (offset) => {
    for (; at < offset && at < text.length; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
};

/** Where the next sentence starts: after the blanks and comments that follow the previous one. */
const nextStart = (text: string, at: number): number => text.length - withoutLeadingComments(text.slice(at)).length;

/** `letTypes`: Coq's types of the goal's let-bound hypotheses (plugin `Arbor_let_types`), when it said them. */
const toGoal = (g: RawGoal, letTypes?: LetTypes): VGoal => ({
  id: g.id,
  goal: g.goal,
  context: g.hyps.flatMap((h) => splitHyp(h, letTypes).map((e): ContextEntry => ({ kind: guessKind(e.name, e.type), name: e.name, text: e.body !== undefined ? `${e.body} : ${e.type}` : e.type }))),
});

/** Characters coqidetop's XML cannot carry (tabs, line ends and form feeds, common in old sources, pass). */
function firstControlCharacter(text: string): { at: number; code: string } | undefined {
  for (let i = 0; i < text.length; i++) {
    const n = text.charCodeAt(i);
    if ((n < 32 && n !== 9 && n !== 10 && n !== 13 && n !== 12) || n === 127 || (n >= 0x80 && n < 0xa0)) return { at: i, code: n.toString(16).toUpperCase().padStart(4, '0') };
  }
  return undefined;
}

/** Runs `text` (a `.v` file) and reports every theorem's derivation and conversion. */
export async function vFileDerivations(given: string, options: VFileOptions): Promise<VFileReport> {
  const started = performance.now();
  // A UTF-8 byte-order mark (Windows editors write one) is no Coq token, yet coqc skips it: a blank here
  // (same offsets, same lines).
  const text = given.replace(/^\uFEFF/, ' ');
  const control = firstControlCharacter(text);
  if (control !== undefined) {
    // coqidetop's XML cannot carry it (Coq echoes strings back in its answers): said at its line, nothing run.
    return { theorems: [], sentences: 0, stopped: { line: lineCounter(text)(control.at), message: `the file contains the control character U+${control.code} (line ${lineCounter(text)(control.at)}), which coqidetop's XML cannot carry: nothing was run` }, ms: Math.round(performance.now() - started), project: options.project !== undefined };
  }
  const project = options.project;
  const clientOptions = {
    ...(options.client ?? {}),
    ...(project !== undefined ? { extraArgs: [...project.args], sandbox: { readOnly: [...project.readOnly] } } : {}),
  };
  // With Arbor's plugin where it is built: the policy asks Coq which blocks are open before an assumption.
  const start = async (): Promise<CoqideTopClient> => (await startWithArborPlugin(clientOptions)) ?? CoqideTopClient.start(clientOptions);
  let client = await start();
  const sentences: VSentence[] = [];
  const states: number[] = [];
  let stopped: VFileReport['stopped'];
  const skipped: VFileSkipped[] = [];
  // For each skipped sentence, the index of the sentence run after it: a theorem ending at or after that
  // index was read without it, also when it was skipped inside its own proof or on its first line.
  const skippedBefore: number[] = [];
  // `Include` may make a module type's fields axioms of the file's library: from then on every theorem is asked.
  let included = false;
  const totalLines = lineCounter(text)(text.length);
  const done: string[] = [];
  let proving: string | undefined;
  // Once a proof is left out, the text a conversion's DEFINE carries is no longer the file's own prefix: Coq reads
  // that text too, on a second prover, and a conversion after the line it refuses says so instead of offering a DEFINE
  // that would fail (a `<:` functor whose admitted field was left out: "The field get is missing in Top.ListsTable").
  let found: readonly VTheorem[] = [];
  const defined = new DefinedPrefix(start, options.timeoutMs, options.signal, () => deadline, () => found, (line) => options.onProgress?.({ sentences: sentences.length, line, lines: totalLines, theorems: done.length, lastTheorems: done.slice(-3), ...(skipped.length > 0 ? { skipped: skipped.length } : {}) }));
  const deadline = options.wallClockMs !== undefined ? started + options.wallClockMs : Infinity;
  try {
    // Read-only: a proof may be `Admitted`; what rests on it is said per theorem (Print Assumptions, below).
    const policy = new SentencePolicy('read-only');
    const lineAt = lineCounter(text);
    let inProof = false;
    let at = 0;
    for (;;) {
      if (options.signal?.aborted) {
        stopped = { line: lineAt(nextStart(text, at)), message: `cancelled at line ${lineAt(nextStart(text, at))}: the theorems read before it are shown`, cancelled: true };
        break;
      }
      if (performance.now() > deadline) {
        stopped = { line: lineAt(nextStart(text, at)), message: `stopped at line ${lineAt(nextStart(text, at))}: opening a .v file may take at most ${Math.round((options.wallClockMs ?? 0) / 1000)} s (Arbor's limit); the theorems read before it are shown` };
        break;
      }
      let s;
      try {
        s = await nextCoqSentence(text, at, (piece) => client.annotate(piece));
      } catch (e) {
        if (e instanceof SentenceParseError) {
          // The line of the sentence Coq could not read, not the end of the one before it; a comment that
          // never closes reaches the end of the file: its own first line then (atk-vfile: was the file's last).
          const start = nextStart(text, at);
          const blank = text.slice(at).search(/\S/);
          stopped = { line: lineAt(start >= text.length && blank >= 0 ? at + blank : start), message: e.message };
          break;
        }
        if (client.alive) throw e;
        // coqidetop died (killed after a Cancel's unanswered interrupt, or a crash): what was read is kept and judged.
        const line = lineAt(nextStart(text, at));
        stopped = options.signal?.aborted
          ? { line, message: `cancelled at line ${line}: the theorems read before it are shown`, cancelled: true }
          : { line, message: `Coq stopped at line ${line} (${(e as Error).message.replace(/\s+/g, ' ').trim()}): the theorems read before it are shown` };
        break;
      }
      if (s === undefined) break;
      // The sentence's own first line: after the comments before it, not the first of those.
      const line = lineAt(s.start + (s.text.length - withoutLeadingComments(s.text).length));
      // Whether an assumption is a module type's field is Coq's to say (coq-blocks.ts; without the plugin, the text's
      // reading). Once one is allowed (or an `Include`, however wrapped), every later theorem is asked what it rests
      // on: a theorem inside the module type may use its fields, and a reading can be fooled.
      const asks = policy.asksWhere(s.pp, inProof);
      let unasked: string | undefined;
      const where = asks !== undefined ? await coqOpenBlocks(client).catch((e: unknown) => {
        unasked = `parse error: file sentence not run: ${e instanceof Error ? e.message : String(e)}`;
        return [];
      }) : undefined;
      const refusal = unasked ?? policy.judge(s.pp, inProof, s.tacticHead, where);
      if (asks === 'assumption' && refusal === undefined) included = true;
      if (refusal !== undefined) {
        // Not run, and the run goes on (coqc would have run it): each later theorem says it was read without it.
        skipped.push({ line, text: coqCode(s.text).slice(0, 80), reason: refusal.replace(/^parse error: file /, '') });
        skippedBefore.push(sentences.length);
        at = s.end;
        continue;
      }
      try {
        const r = await client.addAndGoals(s.text, Math.max(1, Math.min(options.timeoutMs, deadline - performance.now())), options.signal);
        const wasInProof = inProof;
        inProof = r.goals !== undefined;
        const givenUp = (r.goals ?? []).filter((g) => g.givenUp).map((g) => g.id);
        // A let-bound hypothesis' type as Coq printed it, asked at this new state (only when a goal has one).
        const letTypes = r.all === undefined ? undefined : await letTypesAt(client, r.all, Math.max(1, Math.min(5000, deadline - performance.now())));
        sentences.push({ text: s.text, pp: s.pp, ...(s.tacticHead !== undefined ? { tacticHead: s.tacticHead } : {}), code: coqCode(s.text), line, ...(r.all !== undefined ? { goals: r.all.map((g) => toGoal(g, letTypes?.get(g.id))) } : {}), ...(givenUp.length > 0 ? { givenUp } : {}), ...(r.goals !== undefined && r.shelvedIds.length > 0 ? { shelved: r.shelvedIds } : {}) });
        states.push(r.stateId);
        if (/^\s*(?:#\[[^\]]*\]\s*)*Include\b/.test(s.pp)) included = true;
        const opened = !wasInProof && r.goals !== undefined ? OPENED.exec(coqCode(s.text))?.[1] : undefined;
        if (opened !== undefined) proving = opened;
        if (r.goals === undefined && proving !== undefined) {
          done.push(proving);
          proving = undefined;
        }
        options.onProgress?.({ sentences: sentences.length, line, lines: totalLines, theorems: done.length, lastTheorems: done.slice(-3), ...(skipped.length > 0 ? { skipped: skipped.length } : {}) });
      } catch (e) {
        if (options.signal?.aborted) {
          // Cancel interrupted this sentence: it did not run; what was read before it is kept.
          stopped = { line, message: `cancelled at line ${line}: the theorems read before it are shown`, cancelled: true };
          break;
        }
        const said = performance.now() >= deadline
          ? `stopped at line ${line}: opening a .v file may take at most ${Math.round((options.wallClockMs ?? 0) / 1000)} s (Arbor's limit); the theorems read before it are shown`
          : (e as Error).message.replace(/\s+/g, ' ').trim();
        // An error after a skipped sentence may be the skip's doing: said with it.
        stopped = { line, message: skipped.length > 0 ? `${said} (read without the skipped sentence${skipped.length === 1 ? '' : 's'} at line ${skipped.map((k) => k.line).join(', ')})` : said };
        break;
      }
      at = s.end;
    }
    if (!client.alive && sentences.length > 0) {
      // Cancel's interrupt went unanswered (a loaded machine) and coqidetop was killed: the sentences read are
      // read again on a fresh one (Add only parses; each is run when a judgement asks at its state).
      await client.dispose();
      client = await start();
      try {
        for (const [i, s] of sentences.entries()) states[i] = await client.add(s.text, options.timeoutMs);
      } catch (e) {
        const said = `Coq had to be stopped and could not read the file again (${(e as Error).message.replace(/\s+/g, ' ').trim()}): no theorem could be judged`;
        return { theorems: [], sentences: sentences.length, stopped: { ...(stopped ?? { line: 1 }), message: stopped === undefined ? said : `${stopped.message}; ${said}` }, ms: Math.round(performance.now() - started), project: project !== undefined };
      }
    }
    const theorems: VFileTheoremReport[] = [];
    // Admitted proofs so far, by kernel name (Coq's Locate right after the Admitted); the sentences of those
    // and of the theorems resting on them, left out of later conversions' DEFINE.
    const admitted = new Map<string, AdmittedConstant>();
    const leftOut: [number, number][] = [];
    // Finished proofs holding a tactic a document refuses: a later conversion's DEFINE would hold them and be refused.
    const refusedBefore: RefusedBefore[] = [];
    // A trusted project's libraries may hold admitted lemmas of their own: then every theorem is asked.
    const libraries = project !== undefined ? projectLibraries(project.args) : [];
    let anyAdmitted = libraries.length > 0;
    found = theoremsOf(sentences);
    const readingCut = stopped !== undefined;
    // Every sentence judged once by a document's policy. Declarations it refuses though a `.v` file may run them
    // (`Register`, `Include` in a module, an option outside the allow-list) are left out of every conversion's DEFINE,
    // as an admitted proof is, and Coq then judges the text without them (DefinedPrefix); a refused proof sentence (an
    // aborted attempt's `admit`) refuses the conversions whose DEFINE would carry it (convert). A sentence is in a proof
    // when the one before it left goals (the file's own reading).
    const inTheorem = new Array<boolean>(sentences.length).fill(false);
    for (const t of found) for (let i = t.index; i <= t.endIndex; i++) inTheorem[i] = true;
    const documentPolicy = new SentencePolicy('define');
    const refusedInProof = new Map<number, string>();
    for (const [i, s] of sentences.entries()) {
      if (isQuery(s.pp)) continue;
      const why = documentPolicy.judge(s.pp, sentences[i - 1]?.goals !== undefined, s.tacticHead);
      if (why === undefined) continue;
      if (inTheorem[i] === true) refusedInProof.set(i, why);
      else leftOut.push([i, i]);
    }
    for (const [k, t] of found.entries()) {
      // Judging (Check, Print Assumptions, Locate) takes a second or more per theorem on a loaded machine:
      // Cancel and the overall limit hold here too, keeping only the theorems judged (never one unjudged).
      // A Cancel or the limit that already stopped the reading asked to keep what was read: all of it is judged.
      const cancelled = options.signal?.aborted === true && !readingCut;
      if (cancelled || (performance.now() > deadline && !readingCut)) {
        const why = cancelled ? 'cancelled' : `stopped (opening a .v file may take at most ${Math.round((options.wallClockMs ?? 0) / 1000)} s, Arbor's limit)`;
        const said = `${why} at line ${t.line} while asking Coq what each theorem rests on: the ${theorems.length} theorem${theorems.length === 1 ? '' : 's'} before it are shown`;
        stopped = stopped === undefined ? { line: t.line, message: said, ...(cancelled ? { cancelled: true as const } : {}) } : { ...stopped, message: `${stopped.message}; then ${said}` };
        break;
      }
      options.onProgress?.({ sentences: sentences.length, line: t.line, lines: totalLines, theorems: done.length, lastTheorems: done.slice(-3), ...(skipped.length > 0 ? { skipped: skipped.length } : {}), judged: k, judging: found.length });
      const steps = derivationSteps(recordedSteps(sentences, t));
      const state = states[t.endIndex];
      const finished = t.ending === 'Qed' || t.ending === 'Defined';
      // An anonymous `Goal … Qed` is a constant too (Coq names it): judged like a named theorem.
      const judged = finished && state !== undefined && (anyAdmitted || included) ? t.name ?? await anonymousConstant(client, states[t.index - 1], state) : undefined;
      const restsOn = judged !== undefined && state !== undefined ? await admittedReliance(client, judged, state, admitted, libraries) : [];
      const readWithout = skipped.filter((_, i) => (skippedBefore[i] ?? Infinity) <= t.endIndex);
      theorems.push({
        ...(t.name !== undefined ? { name: t.name } : {}),
        ...(readWithout.length > 0 ? { readWithout: readWithout.map((k) => k.line) } : {}),
        opener: t.opener, line: t.line, endLine: t.endLine, ending: t.ending, steps,
        ...(restsOn.length > 0 ? { restsOn: restsOn.map((a) => ({ name: a.name, ...(a.line !== undefined ? { line: a.line } : {}) })) } : {}),
        converted: restsOn.length > 0 ? restsOnRefusal(restsOn) : await convert(client, sentences, states, t, leftOut, refusedBefore, defined, found, refusedInProof),
      });
      if (restsOn.length > 0) leftOut.push([t.index, t.endIndex]);
      const refused = finished && restsOn.length === 0 ? refusedTactic(t, sentences) : undefined;
      if (refused !== undefined) refusedBefore.push({ name: t.name ?? 'the Goal', line: t.line, why: refused, index: t.index });
      if (t.ending === 'Admitted') {
        // Named or not (an anonymous Goal, a Program obligation): from here on every theorem is asked.
        anyAdmitted = true;
        leftOut.push([t.index, t.endIndex]);
        const kernelName = t.name !== undefined && state !== undefined ? await kernelNameAt(client, t.name, state) : undefined;
        if (kernelName !== undefined && t.name !== undefined) admitted.set(kernelName, { kernelName, name: t.name, line: t.line });
      }
    }
    // Cancelled while the last theorem was judged (its conversion's second reading): the report says so all the same.
    if (stopped === undefined && options.signal?.aborted === true) {
      const last = theorems.at(-1);
      stopped = { line: last?.line ?? 1, message: `cancelled at line ${last?.line ?? 1} while its conversion was read: the theorems read are shown`, cancelled: true };
    }
    return { theorems, sentences: sentences.length, ...(stopped ? { stopped } : {}), ...(skipped.length > 0 ? { skipped } : {}), ms: Math.round(performance.now() - started), project: project !== undefined };
  } finally {
    await client.dispose();
    await defined.dispose();
  }
}

/**
 * A converted item's DEFINE text, with the signature of each module still open at the theorem dropped from its
 * opening sentence: the item ends inside the module, and its SCRIPT closes it without the fields that come after
 * the theorem, which Coq would refuse at `End` ("The field get_set_other is missing in Top.FunTable"). Coq checks
 * a signature only at `End`, so the theorem means the same. Done only where Coq's open blocks at the theorem
 * (`Arbor_blocks`) are exactly those the text's reading found; otherwise the text stays as written.
 */
async function withoutOpenSignatures(client: CoqideTopClient, codes: readonly string[], state: number | undefined): Promise<string[]> {
  const open: { block: OpenBlock; index: number }[] = [];
  codes.forEach((code, index) => {
    const effect = blockEffect(code);
    if (effect === undefined) return;
    if ('open' in effect) open.push({ block: effect.open, index });
    else open.pop();
  });
  const signed = open.flatMap(({ block, index }) => {
    const bare = block.kind === 'module' ? withoutModuleType(codes[index] as string) : undefined;
    return bare === undefined ? [] : [{ index, name: block.name, bare }];
  });
  if (signed.length === 0 || state === undefined) return [...codes];
  const coq = await coqOpenBlocks(client, state).catch(() => undefined);
  if (coq === undefined || coq.length !== open.length || coq.some((b, i) => b.kind !== open[i]?.block.kind || b.name !== open[i]?.block.name)) return [...codes];
  const out = [...codes];
  for (const s of signed) out[s.index] = `${s.bare} (* Arbor: the signature is checked at End ${s.name}, which this item does not reach *)`;
  return out;
}

/**
 * The names the theorem's own binders put in its first goal: its starting context without the open sections' variables
 * (`Section S. Variable n : nat. Lemma l : n = n.` starts with `n` in context, which the converted item, stated inside
 * the same section, must not introduce again). Coq says which are section variables (`Locate Term`: `Variable n`), at
 * the state before the theorem, asked only when a section is open there.
 */
async function ownBinders(client: CoqideTopClient, t: VTheorem, before: number | undefined): Promise<string[]> {
  const names = t.start.context.map((e) => e.name);
  if (before === undefined || names.length === 0) return names;
  const blocks = await coqOpenBlocks(client, before).catch(() => undefined);
  if (blocks !== undefined && !blocks.some((b) => b.kind === 'section')) return names;
  const own: string[] = [];
  for (const name of names) {
    const located = isQualid(name) ? await client.query(`Locate Term ${name}.`, before).catch(() => []) : [];
    if (sectionVariableFromLocate(located.map((m) => m.text).join('\n'))?.sectionVariable !== name) own.push(name);
  }
  return own;
}

/**
 * A stretch of the file Coq refused once the admitted proofs before it were left out; or, `stopped`, where the second
 * reading could not go on (the file's time limit, Cancel, its prover gone): nothing Coq said about the text.
 */
interface Refusal {
  from: number;
  to: number;
  line: number;
  message: string;
  stopped?: boolean;
  /** The theorem ran, but its statement reads differently without what was left out. */
  meaning?: boolean;
}

/** The theorem a conversion is for: its statement as the item states it, and the kernel term of its type in the file. */
interface Converting {
  index: number;
  name: string;
  statement: string;
  kernel: string | undefined;
}

/**
 * The file's sentences as the conversions' DEFINEs carry them (left-out proofs and queries dropped), run by Coq on a
 * prover of their own, started only once something was left out (before that, the DEFINE's text is the file's own
 * prefix, which Coq already ran). Each converted theorem is run there too, after its DEFINE. What Coq refuses there
 * is left out of later DEFINEs as well: a declaration whole (`Definition optimizer := optimize_0plus_com …` over an
 * admitted Fixpoint), a theorem whole (its proof needs what was left out). A refused sentence that may open or close
 * a section or module cannot be left out alone (the rest would land in the wrong block): every later conversion is
 * then refused with Coq's message.
 */
class DefinedPrefix {
  private client: CoqideTopClient | undefined;
  private next = 0;
  private blocked: Refusal | undefined;
  private readonly dropped: Refusal[] = [];
  private readonly open: (Refusal | undefined)[] = [];
  private theoremAt: Map<number, VTheorem> | undefined;

  constructor(private readonly start: () => Promise<CoqideTopClient>, private readonly timeoutMs: number, private readonly signal: AbortSignal | undefined, private readonly deadline: () => number, private readonly theorems: () => readonly VTheorem[], private readonly progress: (line: number) => void) {}

  /** Whether the DEFINE's text is read (again) on the second prover: something was left out, and nothing stopped it. */
  reading(leftOut: readonly [number, number][]): boolean {
    return this.blocked === undefined && (leftOut.length > 0 || this.client !== undefined);
  }

  /** Runs the DEFINE's text through sentence `upTo` − 1 (a theorem's own sentences whole). */
  async through(sentences: readonly VSentence[], upTo: number, leftOut: readonly [number, number][], converting?: Converting): Promise<void> {
    if (this.blocked !== undefined || (leftOut.length === 0 && this.client === undefined)) return;
    const stop = this.stopped(sentences[this.next]?.line ?? 0);
    if (stop !== undefined) {
      // Cancelled or out of time before Coq read anything more: no prover is started for it.
      this.blocked = { from: this.next, to: this.next, ...stop };
      return;
    }
    if (this.client === undefined) {
      this.client = await this.start();
      this.next = 0;
    }
    const client = this.client;
    this.theoremAt ??= new Map(this.theorems().map((t) => [t.index, t]));
    const theoremAt = this.theoremAt;
    const skipped = (i: number): boolean => leftOut.some(([from, to]) => i >= from && i <= to) || isQuery((sentences[i] as VSentence).pp);
    while (this.next < upTo) {
      const from = this.next;
      const theorem = theoremAt.get(from);
      const to = theorem?.endIndex ?? from;
      this.next = to + 1;
      const before = client.tip;
      let ran = true;
      for (let i = from; i <= to; i++) {
        if (skipped(i)) continue;
        const s = sentences[i] as VSentence;
        this.progress(s.line);
        const stop = this.stopped(s.line);
        if (stop !== undefined) {
          this.blocked = { from, to, ...stop };
          return;
        }
        const left = this.deadline() - performance.now();
        try {
          // The file's own limit holds here too (Arbor's wall-clock limit on opening a .v file).
          await client.addAndGoals(s.code, Math.max(1, Math.min(this.timeoutMs, left)), this.signal);
        } catch (e) {
          // Cancelled, out of time, or the prover gone: Coq said nothing about the text, and nothing after it is offered.
          const cut = this.stopped(s.line) ?? (client.alive ? undefined : { line: s.line, message: `Arbor's second prover stopped (${(e as Error).message.replace(/\s+/g, ' ').trim()})`, stopped: true });
          if (cut !== undefined) {
            this.blocked = { from, to, ...cut };
            return;
          }
          const said = (e as Error).message.replace(/\s+/g, ' ').trim();
          // Arbor's limit per sentence, not Coq's refusal: said so (the sentence is left out like a refused one).
          const message = e instanceof CoqTimeout ? `not finished within Arbor's limit of ${Math.round(this.timeoutMs / 1000)} s per sentence` : said;
          const refusal = { from, to, line: s.line, message };
          const back = await client.editAt(before).then(() => true, () => false);
          // A module whose signature Coq refuses here (`: T with Definition x := adm`, adm left out): the conversion of a
          // theorem inside it opens it bare (withoutOpenSignatures), so it is read bare; its `End` would check the
          // signature, so every conversion after that `End` is refused at the header's line.
          const bare = back && theorem === undefined ? withoutModuleType(s.code) : undefined;
          if (bare !== undefined && await client.addAndGoals(bare, Math.max(1, Math.min(this.timeoutMs, this.deadline() - performance.now())), this.signal).then(() => true, () => false)) {
            this.open.push(refusal);
            continue;
          }
          if (bare !== undefined) await client.editAt(before).catch(() => undefined);
          if (!back || (theorem === undefined && changesBlocks(s.pp))) {
            this.blocked = refusal;
            return;
          }
          this.dropped.push(refusal);
          ran = false;
          break;
        }
        // The blocks the reading has open (each with the refused signature it was opened without, if any).
        const effect = theorem === undefined ? blockEffect(s.code) : undefined;
        if (effect !== undefined && 'open' in effect) this.open.push(undefined);
        else if (effect !== undefined) {
          const signature = this.open.pop();
          if (signature !== undefined) {
            this.blocked = { ...signature, from: i, to: i };
            return;
          }
        }
      }
      if (ran && theorem !== undefined && converting !== undefined && converting.index === from) await this.sameMeaning(client, theorem, converting);
    }
  }

  /**
   * The theorem being converted, run here without what was left out, must state what it states in the file: Coq's
   * kernel terms of its type compared (plugin `Arbor_statement`: a left-out `Include` or definition can make `plus`
   * or `f` another constant, a left-out instance another instance), and the converted GOAL's text must elaborate here
   * to that type. Otherwise the conversion is refused.
   */
  private async sameMeaning(client: CoqideTopClient, t: VTheorem, converting: Converting): Promise<void> {
    const notice = async (q: string): Promise<string[]> => (await client.query(q, client.tip).catch(() => [])).filter((m) => m.level === 'notice').map((m) => m.text);
    const here = converting.kernel === undefined ? undefined : readArborStatement(await notice(`Arbor_statement ${converting.name}.`))?.kernel;
    const elaborates = await client.query(`Check (@${converting.name} : ltac:(let T := constr:(${converting.statement}) in exact T)).`, client.tip).then(() => true, () => false);
    if (converting.kernel !== undefined && here === converting.kernel && elaborates) return;
    const why = converting.kernel === undefined ? "Arbor's Coq plugin, which compares statements, is not loaded" : here !== converting.kernel ? "Coq's kernel terms of its statement differ" : 'the converted statement does not elaborate to it';
    this.dropped.push({ from: t.index, to: t.endIndex, line: t.line, message: `without what is left out, its statement means something else here (${why})`, meaning: true });
  }

  /** Why the reading cannot go on at `line`: Cancel, or the file's time limit spent (undefined: it can). */
  private stopped(line: number): { line: number; message: string; stopped: true } | undefined {
    if (this.signal?.aborted === true) return { line, message: 'the opening was cancelled', stopped: true };
    if (this.deadline() - performance.now() <= 0) return { line, message: 'the time limit for opening the file was reached', stopped: true };
    return undefined;
  }

  /** Why a conversion of `t` is refused: Coq refused its DEFINE's text, or its own proof after that text. */
  refusalOf(t: VTheorem): { refusal: Refusal; own: boolean } | undefined {
    if (this.blocked !== undefined && this.blocked.from <= t.endIndex) return { refusal: this.blocked, own: this.blocked.from >= t.index };
    const own = this.dropped.find((d) => d.from === t.index);
    return own === undefined ? undefined : { refusal: own, own: true };
  }

  /** Whether sentence `i` is left out of a DEFINE because Coq refused it (or the theorem holding it) there. */
  leftOut(i: number): boolean {
    return this.dropped.some((d) => d.meaning !== true && i >= d.from && i <= d.to);
  }

  /** The refused stretches before sentence `i`, for a conversion's reason. */
  droppedBefore(i: number): readonly Refusal[] {
    return this.dropped.filter((d) => d.meaning !== true && d.to < i);
  }

  async dispose(): Promise<void> {
    await this.client?.dispose();
  }
}

/**
 * The constant Coq made for an anonymous `Goal … Qed` (`Unnamed_thm`, `Unnamed_thm0`, …: the first name that
 * was free): the first of those whose kernel name after the proof differs from before it (a file may name a
 * lemma `Unnamed_thm` itself; inside a module the name may shadow an outer one).
 */
async function anonymousConstant(client: CoqideTopClient, before: number | undefined, after: number): Promise<string | undefined> {
  for (let k = -1; k < 1000; k++) {
    const name = `Unnamed_thm${k < 0 ? '' : k}`;
    const now = await kernelNameAt(client, name, after);
    if (now === undefined) return undefined;
    if (before === undefined || (await kernelNameAt(client, name, before)) !== now) return name;
  }
  return undefined;
}

const restsOnRefusal = (on: readonly AdmittedConstant[]): Converted => ({
  ok: false,
  reason: `it rests on ${on.map((a) => (a.line !== undefined ? `${a.name} (line ${a.line})` : a.kernelName.startsWith('Top.') ? a.name : `${a.name} (${a.kernelName})`)).join(', ')}, admitted or assumed (an included module type's field, or the project library's), not proved (Coq's Print Assumptions lists it): prove that first — Arbor never assumes an unproved lemma`,
});

/**
 * The theorem as an Arbor document: its statement as Coq typed it, read at the state after it ended. The
 * admitted proofs before it, and theorems resting on them, are left out of its DEFINE (they would be
 * refused; it does not rest on them).
 */
/** An earlier finished proof whose tactics a document refuses: where it is, and why. */
interface RefusedBefore {
  name: string;
  line: number;
  why: string;
  index: number;
}

/** Why a document would refuse one of the proof's tactics (`line n: …`), or undefined. */
function refusedTactic(t: VTheorem, sentences: readonly VSentence[]): string | undefined {
  for (const tac of t.tactics) {
    const refusal = new SentencePolicy('define').judge(`${tac.tactic}.`, true, sentences[tac.index]?.tacticHead);
    if (refusal !== undefined) return `line ${tac.line}: ${refusal.replace(/^parse error: declaration /, '')}`;
  }
  return undefined;
}

async function convert(client: CoqideTopClient, sentences: readonly VSentence[], states: readonly number[], t: VTheorem, leftOut: readonly [number, number][], refusedBefore: readonly RefusedBefore[], defined: DefinedPrefix, theorems: readonly VTheorem[], refusedInProof: ReadonlyMap<number, string>): Promise<Converted> {
  if (t.name === undefined) return { ok: false, reason: 'an anonymous Goal has no name to read its statement by' };
  if (t.ending === 'Admitted') return { ok: false, reason: 'the proof is Admitted, not proved: Arbor never states an unproved lemma as a theorem (only proofs ending in Qed or Defined convert)' };
  if (t.ending !== 'Qed' && t.ending !== 'Defined') return { ok: false, reason: `the proof ends with ${t.ending === 'open' ? 'nothing (it is unfinished)' : t.ending}: only finished proofs convert` };
  const state = states[t.endIndex];
  if (state === undefined) return { ok: false, reason: 'the proof did not run to its end' };
  let statement: string | undefined;
  try {
    const messages = await client.query(`Check @${t.name}.`, state);
    statement = typeFromCheck(messages.map((m) => m.text).join('\n'));
  } catch (e) {
    return { ok: false, reason: `Coq could not print its statement: ${(e as Error).message}` };
  }
  if (statement === undefined) return { ok: false, reason: 'Coq printed its statement in an unexpected form' };
  const printed: string = statement;
  // Coq's print hides implicit arguments the file wrote out (`@elements V empty_tree` prints as `elements empty_tree`),
  // and then does not elaborate again ("Cannot infer the implicit parameter V"): the statement as stored is printed
  // with every argument instead (the plugin's `Arbor_statement`, under Printing All).
  // (`Check` elaborates it with the implicit argument left an existential, listed after `where`.)
  const noEvar = (ms: readonly { text: string }[]): boolean => ms.every((m) => !/\nwhere\n\?/.test(m.text));
  // The type as stored (plugin `Arbor_statement`): the statement printed with every argument, and its kernel term.
  let stored: Promise<ReturnType<typeof readArborStatement>> | undefined;
  const storedStatement = (): Promise<ReturnType<typeof readArborStatement>> => {
    stored ??= hasArborPlugin(client)
      ? client.query(`Arbor_statement ${t.name}.`, state).catch(() => []).then((ms) => readArborStatement(ms.filter((m) => m.level === 'notice').map((m) => m.text)))
      : Promise.resolve(undefined);
    return stored;
  };
  const elaborates = await client.query(`Check (${printed}).`, state).then(noEvar, () => false);
  // The print may also read as *another* statement: `@v i1 = @v i1` prints `v = v`, which elaborates with the default
  // instance i2. Coq judges: the theorem itself must have the type the print elaborates to on its own (up to conversion;
  // `constr:` elaborates it whole before the cast, which would otherwise unify `v`'s instance with i1).
  const same = elaborates && await client.query(`Check (@${t.name} : ltac:(let T := constr:(${printed}) in exact T)).`, state).then(noEvar, () => false);
  if (!same) {
    const asStored = await storedStatement();
    if (asStored !== undefined) statement = asStored.printed;
    else if (elaborates) return { ok: false, reason: `Coq prints its statement as \`${printed}\`, which reads as another statement here (Coq's check of the theorem against it fails), and Arbor's Coq plugin, which prints it with every argument, is not loaded` };
  }
  // A Qed proof may hold a tactic a document refuses (`first [exact I | admit]`: the admit never ran): the
  // converted item would stop at that line, so it is refused here, with the document policy's reason.
  const own = refusedTactic(t, sentences);
  if (own !== undefined) return { ok: false, reason: `${own} — an Arbor document refuses it` };
  const item = convertTheorem({ theorem: t, statement: statement ?? printed, binders: await ownBinders(client, t, states[t.index - 1]) });
  if (!item.ok) return item;
  // Queries only print: a document's DEFINE would refuse them for nothing.
  // The DEFINE carries every declaration before the theorem, proofs included: one an Arbor document refuses
  // would stop it. Said here, naming it, instead of a DEFINE refused when it runs.
  const blocking = refusedBefore.find((b) => b.index < t.index && !leftOut.some(([from, to]) => b.index >= from && b.index <= to));
  if (blocking !== undefined) {
    return { ok: false, reason: `its DEFINE would carry the earlier proof of ${blocking.name} (line ${blocking.line}), which holds a tactic an Arbor document refuses (${blocking.why}): convert ${blocking.name} with another proof first` };
  }
  // The kernel term of the theorem's type in the file, for the second reading to compare (only asked when it runs).
  const kernel = defined.reading(leftOut) ? (await storedStatement())?.kernel : undefined;
  await defined.through(sentences, t.endIndex + 1, leftOut, { index: t.index, name: t.name, statement: statement ?? printed, kernel });
  const refused = defined.refusalOf(t);
  if (refused !== undefined) {
    const { refusal, own } = refused;
    if (refusal.stopped === true) return { ok: false, reason: `not offered: Arbor stopped reading its DEFINE at line ${refusal.line} (${refusal.message}), so Coq never judged it` };
    // What was left out before the line Coq refused: a theorem by its name (an anonymous Goal by its line) and why.
    const before = leftOut.filter(([from]) => from < refusal.from);
    const unproved = before.filter(([from]) => theorems.some((x) => x.index === from)).length;
    const out = before.map(([from]) => {
      const left = theorems.find((x) => x.index === from);
      if (left === undefined) return `line ${sentences[from]?.line}, which a document refuses`;
      return `${left.name ?? 'a Goal'} (line ${left.line}, ${left.ending === 'Admitted' ? 'admitted' : 'resting on an admitted proof'})`;
    });
    // The nearest five: what a line needs is most often just above it.
    const listed = out.length > 5 ? [`${out.length - 5} earlier`, ...out.slice(-5)] : out;
    const what = unproved === 0 ? 'what a document refuses' : unproved === before.length ? 'what is not proved' : 'what is not proved and what a document refuses';
    const without = `with ${what} left out of it (${listed.join(', ')})`;
    const dropped = defined.droppedBefore(t.index).map((d) => `line ${d.line}`);
    const alsoOut = dropped.length > 5 ? [...dropped.slice(0, 5), `and ${dropped.length - 5} more`] : dropped;
    const then = alsoOut.length > 0 ? ` and what Coq then refused too (${alsoOut.join(', ')})` : '';
    const todo = unproved > 0 ? 'prove what it needs in the file first' : 'convert a theorem before that line, or change the line';
    let reason: string;
    if (refusal.meaning === true) reason = `${refusal.message.replace(/^without what is left out, /, '')}: ${without}${then}, Coq reads it as another statement — ${todo}`;
    else if (own) reason = `its proof does not go through ${without}${then}: Coq refuses line ${refusal.line}: ${refusal.message} — ${todo}`;
    else reason = `its DEFINE would stop at line ${refusal.line}: ${without}, Coq refuses that line: ${refusal.message} — ${todo}`;
    return { ok: false, reason };
  }
  const kept = sentences.slice(0, t.index).map((s, i) => ({ s, i })).filter(({ s, i }) => !leftOut.some(([from, to]) => i >= from && i <= to) && !defined.leftOut(i) && !isQuery(s.pp));
  // A document's policy refuses a DEFINE whole for one sentence: a proof sentence it refuses (judged once, after
  // reading) is said here, at its line.
  for (const { s, i } of kept) {
    const why = refusedInProof.get(i);
    if (why !== undefined) return { ok: false, reason: `its DEFINE would carry line ${s.line}, which an Arbor document refuses (${why.replace(/^parse error: declaration /, '')}): convert a theorem before it, or change that line` };
  }
  const codes = await withoutOpenSignatures(client, kept.map(({ s }) => s.code), states[t.index - 1]);
  const size = codes.reduce((n, c) => n + c.length + 1, 0);
  if (size > LIMIT_BYTES) return { ok: false, reason: `its DEFINE would hold ${Math.round(size / 1024)} KiB of the file before it, more than a document's DEFINE takes (${LIMIT_BYTES / 1024} KiB): make the file before it a library of the project (its _CoqProject) and Require it` };
  const before = defineLine(codes);
  return { ok: true, lines: before === undefined ? item.lines : [before, ...item.lines] };
}
