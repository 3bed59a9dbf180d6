import { ProverError, type SessionOptions } from '../../shell/prover-session.ts';
import type { HammerPort } from './hammer/hammer-port.ts';
import { INTERRUPT_LEAD_MS, ROUND_TRIP_MS, type CoqTip } from './coq-tip.ts';
import type { CoqPreludes } from './coq-preludes.ts';
import type { GoalPrinter } from './coq-goal-printer.ts';
import { crushTactic, type StepTip } from './coq-proof-steps.ts';
import { searchPremises } from './premise-search.ts';
import { toProverError } from './coq-errors.ts';
import { fragmentProblem, isIdent } from './coq-sentence.ts';
import { constructorsOf } from './coq-declarations.ts';
import { letTypesAt } from './arbor-plugin.ts';

/** What of a Coq session HAMMER's port is made of. */
export interface HammerPortParts {
  tip: CoqTip;
  timeoutMs: number;
  refute: SessionOptions['refute'];
  preludes: CoqPreludes;
  printer: GoalPrinter;
  stepTip: StepTip;
  /** The sentences of the preludes and of the document's DEFINEs. */
  declarations(): string[];
}

/**
 * What HAMMER's pipeline may do to a Coq session (hammer/hammer-port.ts), over the session's tip. It lives
 * here, not in hammer/, because it is made of the Coq backend the pipeline must not see.
 */
export function coqHammerPort({ tip, timeoutMs, refute, preludes, printer, stepTip, declarations }: HammerPortParts): HammerPort {
  return {
    timeoutMs,
    refute,
    plugin: () => preludes.hammerPlugin,
    deadline: () => tip.hardDeadline,
    current: () => tip.current,
    length: () => tip.log.length,
    attempt: (sentences, wantedMs) => tip.attempt(sentences, wantedMs),
    rewind: (len) => tip.rewind(len),
    keepGoals: () => tip.keepGoals(),
    query: async (sentence) => {
      // Cut at the deadline like every call of a HAMMER (a `Check` of a huge subterm is not free).
      const left = Math.min(ROUND_TRIP_MS, (tip.hardDeadline ?? Infinity) - Date.now() - INTERRUPT_LEAD_MS);
      if (left < 500) throw new ProverError('timeout', 'timeout');
      return (await tip.client.query(sentence, tip.client.tip, left)).map((m) => m.text).join('\n');
    },
    premises: (deadline) => {
      const own = tip.openProof()?.name;
      return searchPremises({
        // Through `attempt` and `rewind`, as every look-ahead of HAMMER: cut at the deadline, and the log and
        // coqidetop's tip never disagree (a raw Add whose Edit_at was interrupted left them apart).
        printedAll: async () => {
          const len = tip.log.length;
          const putBack = tip.keepGoals();
          const r = await tip.attempt(['Set Printing All.'], ROUND_TRIP_MS);
          if (!r.ok) return undefined;
          try {
            const goal = r.goals[0];
            if (goal === undefined) return undefined;
            // A let-bound hypothesis' type as printed at this state, when the deadline leaves time to ask.
            const left = Math.min(ROUND_TRIP_MS, (tip.hardDeadline ?? Infinity) - Date.now());
            const letTypes = left < 1000 ? undefined : await letTypesAt(tip.client, [goal], left);
            return { ...goal, letTypes: letTypes?.get(goal.id) };
          } finally {
            await tip.rewind(len);
            putBack();
          }
        },
        query: async (sentence) => {
          const left = Math.min(ROUND_TRIP_MS, (tip.hardDeadline ?? Infinity) - Date.now());
          // A query the deadline would interrupt is not started: a SIGINT racing its answer could reach the next call.
          if (left < 1000) return [];
          return (await tip.client.query(sentence, tip.client.tip, left).catch(() => [])).filter((m) => m.level === 'notice').map((m) => m.text);
        },
      }, deadline, new Set(own === undefined ? [] : [own]));
    },
    classify: (goals) => printer.classify(goals),
    hypotheses: (line) => printer.splitCached(line),
    crush: (rules, limitMs) => crushTactic(stepTip, rules, limitMs),
    declarations,
    theorems: () => tip.items.filter((i) => i.kind === 'proof' && i.end !== undefined && i.name !== undefined).map((i) => i.name as string),
    declaresNothing: () => preludes.channelSentences.length === 0 && preludes.untrustedSentences.length === 0 && !tip.items.some((i) => i.kind === 'define'),
    toProverError,
    fatal: (e) => tip.fatal(e),
    fragmentProblem,
    isIdent,
    constructorsOf,
  };
}
