import { CoqFailure, type CoqideTopClient } from './coqidetop-client.ts';
import { ProverError, type SessionOptions } from '../../shell/prover-session.ts';
import { runCoqText, TextRefused } from './coq-text-runner.ts';
import { coqTrim, splitSentences } from './coq-sentence.ts';
import { environmentPrelude, sessionOnlyPrelude } from './environments.ts';
import { notices } from './statement-reading.ts';
import { constantsFromLocate, declaredAssumptions, isQualid } from './assumptions.ts';
import { toProverError } from './coq-errors.ts';

/** Limit for a query: it runs no tactic. */
const ROUND_TRIP_MS = 5000;

/**
 * What a Coq session runs before its document: Arbor's prelude (and CoqHammer's plugin), the user's own
 * prelude (trusted), then the project's and a client's (judged sentence by sentence; a notation they
 * redefine is shown in the meaning of each statement that uses it, docs/notation-overrides.md). Coq delimits them at the first boot; a restart replays exactly the sentences that ran then.
 */
export class CoqPreludes {
  /** Basenames of assumptions the user's own prelude declares (see assumptions.ts)… */
  private readonly preludeAssumptions: Set<string>;
  /** …and their full kernel names, resolved after boot: the only assumptions trusted beyond the library's. */
  trustedAssumptions = new Set<string>();
  private readonly arborSentences: string[];
  /** The environment the document starts from (environments.ts); undefined: Arbor's default prelude. */
  readonly environment: string | undefined;
  /** The user's own prelude (trusted), as Coq delimited it at the first boot (restarts replay these). */
  channelSentences: string[] = [];
  /** The project file's prelude, then a client's (`PRELUDE`): the sentences Coq delimited and the policy allowed at the first boot. */
  untrustedSentences: string[] = [];
  /** Whether the preludes' sentences are known (after the first boot). */
  private preludesRead = false;
  private readonly preludeTexts: { trusted: string; project: string; untrusted: string; trustProject: () => boolean };
  /** The project prelude's assumptions by kernel name: trusted only while the user's confirmation holds. */
  private readonly projectAssumptions = new Set<string>();
  /** Whether CoqHammer's plugin (the `hammer` tactic) loaded; without it HAMMER uses the quick tactics only. */
  hammerPlugin = true;

  constructor(
    options: SessionOptions,
    private readonly timeoutMs: number,
  ) {
    this.environment = options.environment;
    this.arborSentences = splitSentences(environmentPrelude(options.environment));
    this.preludeTexts = { trusted: options.prelude ?? '', project: options.projectPrelude ?? '', untrusted: options.untrustedPrelude ?? '', trustProject: trustReader(options.trustProjectAxioms) };
    this.preludeAssumptions = declaredAssumptions(options.prelude ?? '');
  }

  /** The assumptions trusted now: the user's prelude's, and the project's while its confirmation holds. */
  trustedNow(): ReadonlySet<string> {
    return this.preludeTexts.trustProject() ? new Set([...this.trustedAssumptions, ...this.projectAssumptions]) : this.trustedAssumptions;
  }

  /** Runs the preludes on a fresh coqidetop (disposed, and the error thrown, when one fails). */
  async load(client: CoqideTopClient): Promise<void> {
    const initTip = client.tip;
    try {
      for (const s of sessionOnlyPrelude(this.environment)) await client.add(s);
    } catch (e) {
      if (!(e instanceof CoqFailure)) throw toProverError(e);
      this.hammerPlugin = false;
      await client.editAt(initTip);
    }
    const run = async (what: string, body: () => Promise<void>): Promise<void> => {
      try {
        await body();
        await client.goals();
      } catch (e) {
        await client.dispose();
        if (e instanceof TextRefused) throw new ProverError('refused', e.message);
        const msg = toProverError(e).message;
        if (what === 'Arbor prelude') throw new ProverError('unavailable', `${what}: ${msg} (fix: apt-get install coq libcoq-hammer)`);
        throw new ProverError('prover', `${what}: ${msg}`);
      }
    };
    const addAll = async (sentences: string[]): Promise<void> => {
      for (const s of sentences) await client.add(s);
    };
    await run('Arbor prelude', () => addAll(this.arborSentences));
    // The preludes are split by Coq itself (and a client's judged sentence by sentence) at the first boot;
    // a restart replays exactly the sentences that ran then.
    const first = !this.preludesRead;
    await run('prelude', async () => {
      if (first) this.channelSentences = (await runCoqText(client, this.preludeTexts.trusted, { timeoutMs: this.timeoutMs })).map((r) => coqTrim(r.text));
      else await addAll(this.channelSentences);
    });
    // The user's prelude's assumptions by full kernel name, read before any client text runs (a restart replays
    // the same sentences, so the names stay).
    if (first) this.trustedAssumptions = await this.resolveNames(client, this.preludeAssumptions);
    const judged = [
      { text: this.preludeTexts.project, purpose: 'project' as const },
      { text: this.preludeTexts.untrusted, purpose: 'prelude' as const },
    ].filter((p) => p.text.trim() !== '');
    if (first ? judged.length > 0 : this.untrustedSentences.length > 0) {
      await run('prelude', async () => {
        if (first) {
          const sentences: string[] = [];
          for (const { text, purpose } of judged) {
            const ran = await runCoqText(client, text, { purpose, timeoutMs: this.timeoutMs });
            sentences.push(...ran.map((r) => coqTrim(r.text)));
            // The assumptions the user confirmed are those Coq read in the project prelude (its reprints: no comments).
            // Resolved now (before any client text), trusted only while the user's confirmation holds (read at each END).
            // Only those the user was asked about: the question lists the names read from the file's text
            // (`projectAssumptionNames`), which a nested comment or a string in a comment can hide from that
            // reading while Coq runs the axiom; a name not in the question is never trusted by its answer.
            if (purpose === 'project') {
              // A name declared twice (`Axiom ax : 1 = 2.` and, in a module later imported, `Axiom ax : False.`)
              // is one line in the question but two assumptions: neither is trusted.
              const asked = declaredAssumptions(text);
              const times = new Map<string, number>();
              for (const r of ran) for (const n of declaredAssumptions(r.pp)) times.set(n, (times.get(n) ?? 0) + 1);
              const read = [...times].filter(([n, k]) => k === 1 && asked.has(n)).map(([n]) => n);
              for (const full of await this.resolveNames(client, new Set(read))) this.projectAssumptions.add(full);
            }
          }
          this.untrustedSentences = sentences;
        } else await addAll(this.untrustedSentences);
      });
    }
    this.preludesRead = true;
  }

  /** The preludes' sentences as a document shows them. */
  documentSentences(): string[] {
    return [...this.channelSentences, ...this.untrustedSentences];
  }

  /**
   * The user's prelude's assumptions by full kernel name, read right after it ran (before any client text
   * exists): `Locate Term` lists every constant of a basename, and only the user's prelude has declared any
   * outside the library by then. Later declarations (`Module M. Declare Instance x…`) get other kernel
   * names, so they never borrow this trust.
   */
  private async resolveNames(client: CoqideTopClient, names: Iterable<string>): Promise<Set<string>> {
    const trusted = new Set<string>();
    for (const n of names) {
      if (!isQualid(n)) continue;
      const out = await client.query(`Locate Term ${n}.`, client.tip, ROUND_TRIP_MS).catch(() => []);
      for (const full of constantsFromLocate(notices(out))) if (!/^(Coq|Hammer)\./.test(full)) trusted.add(full);
    }
    return trusted;
  }
}

/** The user's confirmation of the project's assumptions: given at start (desktop dialog) or later (the web page's). */
const trustReader = (t: boolean | (() => boolean) | undefined): (() => boolean) => (typeof t === 'function' ? t : () => t === true);
