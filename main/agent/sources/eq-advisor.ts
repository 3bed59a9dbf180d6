import { AdvisorClient } from '../../provers/eq/advisor-client.ts';
import { SkolemNames } from '../../provers/eq/advisor-codec.ts';
import { aimleapSkolems } from '../../provers/eq/aimleap-hash.ts';
import { parseArticle } from '../../provers/eq/article.ts';
import { DEFAULT_PRELUDE } from '../../provers/eq/default-prelude.ts';
import type { AdvisorSettings } from '../../provers/eq/hammer.ts';
import { parseEquation } from '../../provers/eq/parse-term.ts';
import { rankOptions } from '../../provers/eq/rank-options.ts';
import type { RuleEq } from '../../provers/eq/rewrite.ts';
import { printTerm, TermBank } from '../../provers/eq/term.ts';
import type { Proposal, SuggestionSource } from './suggestion-source.ts';

export interface EqAdvisorOptions {
  /** The channels' ARTICLE (its equations are the rules); default: the eq backend's default prelude. */
  articleText?: string;
  /** An external AIMLEAP advisor (HOST:PORT settings); without it, Arbor's own estimates. */
  advisor?: AdvisorSettings;
  /** How many rewrite options to propose (best estimates first). */
  limit?: number;
}

/**
 * The equational advisor as a suggestion source: for an AIM equation goal, the best-ranked rewrites
 * (`RULE name`, `RULE name<-`, `RULE name@side.path`) and an external advisor's middle terms
 * (`APPLY trans "k"`), each with its distance estimate. Any other goal gets no proposals.
 */
export function eqAdvisor(options: EqAdvisorOptions = {}): SuggestionSource {
  return {
    name: 'eq-advisor',
    propose: async (context) => {
      const bank = new TermBank();
      let goal;
      let rules: RuleEq[];
      try {
        rules = [...parseArticle(bank, options.articleText ?? DEFAULT_PRELUDE).equations];
        goal = parseEquation(bank, context.current.goal, { names: 'constants' });
      } catch {
        return [];
      }
      // HAVE lemmas in the context are rules too (printed with variables x, y, …).
      for (const h of context.current.hyps) {
        try {
          const eq = parseEquation(bank, h.expr, { names: 'variables' });
          rules.push({ name: h.name, lhs: eq.lhs, rhs: eq.rhs });
        } catch {
          // Not an equation: not a rule.
        }
      }
      const advisor = options.advisor ? await AdvisorClient.connect(bank, options.advisor.host, options.advisor.port, {
        connectTimeoutMs: options.advisor.connectTimeoutMs ?? 2000, replyTimeoutMs: options.advisor.replyTimeoutMs ?? 1000,
        // The goal's constants as AIMLEAP's Skolem hashes of it (the goal shown is all this source knows).
        names: new SkolemNames(aimleapSkolems(bank, goal.lhs, goal.rhs)),
      }).catch(() => undefined) : undefined;
      try {
        const ranked = await rankOptions(bank, goal, rules, { ...(advisor ? { advisor } : {}), limit: options.limit ?? 8 });
        return ranked.map((o): Proposal => o.kind === 'middle'
          ? { commands: [`APPLY ${o.command}`], reason: `advisor's middle term ${o.term}` }
          : {
            commands: [`RULE ${o.command}`],
            estimate: o.estimate,
            reason: `${o.rule}${o.dir === 'rl' ? ' right to left' : ''} at ${[o.side, ...o.path].join('.')} → ${printTerm(bank, o.lhs)} = ${printTerm(bank, o.rhs)} (estimate by ${o.by === 'advisor' ? 'the advisor' : 'Arbor'})`,
          });
      } finally {
        advisor?.close();
      }
    },
  };
}
