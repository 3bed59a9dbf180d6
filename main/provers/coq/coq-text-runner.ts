import type { CoqideTopClient } from './coqidetop-client.ts';
import { coqTrim, nextCoqSentence, SentenceParseError, type CoqSentence } from './coq-sentence.ts';
import { changesBlocks, openBlocksAfter, type OpenBlock } from './document-blocks.ts';
import { blockList, coqOpenBlocks, withCoqBlocks } from './coq-blocks.ts';
import { precheckUntrusted, SentencePolicy, whatOf, type PolicyPurpose } from './vernacular-policy.ts';

/** A sentence Coq delimited, the policy allowed (when judged) and Coq ran: its state after it ran. */
export interface RanSentence extends CoqSentence {
  stateId: number;
  /** A proof is open after it (a declaration it opened is complete at the first later sentence without one). */
  proofOpen?: boolean;
}

/** Text refused before or instead of running: Coq could not parse it, or the policy does not allow a sentence. */
export class TextRefused extends Error {
  constructor(
    message: string,
    /** The sentences that ran before the refusal (already undone). */
    readonly ran: number,
  ) {
    super(message);
    this.name = 'TextRefused';
  }
}

export interface RunTextOptions {
  /** Judge every sentence for this purpose; absent: the user's own text, run as Coq delimits it. */
  purpose?: PolicyPurpose;
  /** Limit for each sentence's execution. */
  timeoutMs: number;
  /**
   * A document's DEFINE: the sections and modules earlier DEFINEs left open (the text may close them), and
   * where to say which are open after it (it may leave its own open for later items).
   */
  blocks?: { open: readonly OpenBlock[]; after: (open: OpenBlock[]) => void };
}

/**
 * Runs Coq text one sentence at a time at the document's tip: Coq finds the sentence's extent (with the
 * parser state every earlier sentence left: notations), the policy judges Coq's reading of it, then
 * exactly that text is added and executed. Nothing of the text ever reaches Coq, or a script, except as
 * a sentence Coq delimited and the policy allowed. On a refusal or a Coq error the document goes back to
 * where it was (`Edit_at`) and the error is thrown (`TextRefused`, or the client's `CoqFailure`/`CoqTimeout`/
 * `CoqCrash`; after a crash the caller restarts).
 */
export async function runCoqText(client: CoqideTopClient, text: string, options: RunTextOptions): Promise<RanSentence[]> {
  const purpose = options.purpose;
  const pre = purpose === undefined ? undefined : precheckUntrusted(text, purpose);
  if (pre !== undefined) throw new TextRefused(pre, 0);
  const policy = purpose === undefined ? undefined : new SentencePolicy(purpose, options.blocks?.open, options.blocks !== undefined);
  const start = client.tip;
  const ran: RanSentence[] = [];
  // Whether a proof is open, asked in the same exchange as the first sentence's extent.
  const opened = client.goals(undefined, { joined: true });
  opened.catch(() => undefined); // awaited below; a failure surfaces there
  let inProof: boolean | undefined;
  let at = 0;
  try {
    for (;;) {
      let sentence: CoqSentence | undefined;
      try {
        sentence = await nextCoqSentence(text, at, (piece) => client.annotate(piece));
      } catch (e) {
        if (e instanceof SentenceParseError) throw new TextRefused(e.message, ran.length);
        throw e;
      } finally {
        inProof ??= (await opened).goals !== undefined;
      }
      if (sentence === undefined) break;
      // Where an assumption may stand, and whether an `End` closes the text's own block, is Coq's to say: its open
      // blocks, not the printed text's reading of them. Without Arbor's plugin Coq cannot be asked: an assumption is
      // then refused (an `End` is judged by the reading; a block it closes wrongly only makes Coq's error).
      const asks = policy?.asksWhere(sentence.pp, inProof);
      const where = asks !== undefined ? await coqOpenBlocks(client).catch((e: unknown) => {
        throw new TextRefused(`parse error: ${e instanceof Error ? e.message : String(e)}`, ran.length);
      }) : undefined;
      const blind = asks === 'assumption' && where === undefined ? policy?.refusalOutsideBlocks(sentence.pp) : undefined;
      if (blind !== undefined) throw new TextRefused(`${blind} (Arbor's Coq plugin is not loaded, so Coq cannot be asked whether it stands inside a module type or a section: build it with bash coq-plugin/build.sh)`, ran.length);
      const refusal = policy?.judge(sentence.pp, inProof, sentence.tacticHead, where);
      if (refusal !== undefined) throw new TextRefused(refusal, ran.length);
      const r = await client.addAndGoals(sentence.text, options.timeoutMs);
      inProof = r.goals !== undefined;
      ran.push({ ...sentence, stateId: r.stateId, proofOpen: inProof });
      at = sentence.end;
    }
    const unfinished = policy?.finish(inProof);
    if (unfinished !== undefined) throw new TextRefused(unfinished, ran.length);
    // A sentence that may open or close a block: Coq says what is open after the text (its names too: `Module (* c *)
    // M.` opens M). A document's DEFINE keeps Coq's answer (with the functor parameters the reading found where it
    // agrees); any other text (a prelude, a project's) must leave nothing open, which the reading alone could miss
    // (`Module Type N (X : T with Definition x := (fix f (n : nat) : nat := n) 0).` has a `:=` and stays open).
    const coq = policy !== undefined && purpose !== 'fidelity-context' && ran.some((r) => changesBlocks(r.pp)) ? await coqOpenBlocks(client) : undefined;
    if (options.blocks !== undefined) {
      const read = policy?.blocks ?? openBlocksAfter(ran.map((r) => r.pp), options.blocks.open);
      options.blocks.after(coq === undefined ? read : withCoqBlocks(read, coq));
    } else if (coq !== undefined && coq.length > 0) {
      throw new TextRefused(`parse error: ${whatOf(purpose as PolicyPurpose)} leaves ${blockList(coq)} open`, ran.length);
    }
    return ran;
  } catch (e) {
    // Coq may hold a sentence whose Add succeeded while its execution failed or timed out: back to the start.
    if (client.alive) await client.editAt(start).catch(() => undefined);
    throw e;
  }
}

/** The script of sentences that ran: exactly their text, one after another (each ends where Coq said). */
export const scriptOf = (sentences: readonly CoqSentence[]): string => sentences.map((s) => coqTrim(s.text)).join('\n');
