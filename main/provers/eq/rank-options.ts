/**
 * The advisor's view of one equation goal, for people: every rewrite that applies somewhere in the
 * goal (AIMLEAP's rewrite options, over all cursor positions at once) with the estimated distance to
 * success after it, best first, plus the middle terms an external advisor proposes. Estimates come from
 * the external AIMLEAP advisor when one is given (its batch reply per cursor position), else from
 * Arbor's own estimator (`termDistance` of the new pair; 0 means the rewrite closes the goal).
 */
import type { Advisor } from './advisor-client.ts';
import { OPTION_SLOTS } from './advisor-codec.ts';
import { termDistance } from './advisor-estimator.ts';
import { rewriteSlot } from './advisor-slots.ts';
import type { NamedEquation } from './article.ts';
import type { Direction } from './proof.ts';
import { rewriteAt, rewriteFirst, type RuleEq } from './rewrite.ts';
import { constantsInOrder, positions, printTerm, type Term, type TermBank } from './term.ts';

export interface RewriteOption {
  kind: 'rewrite';
  rule: string;
  dir: Direction;
  side: 1 | 2;
  path: number[];
  /** The goal after the rewrite. */
  lhs: Term;
  rhs: Term;
  estimate: number;
  by: 'advisor' | 'arbor';
  /** The `RULE` argument: `name`/`name<-` when that is the rewrite the bare rule makes, else `name[<-]@side.path`. */
  command: string;
}

export interface MiddleOption {
  kind: 'middle';
  term: string;
  command: string;
}

export type RankedOption = RewriteOption | MiddleOption;

export async function rankOptions(
  bank: TermBank,
  goal: { lhs: Term; rhs: Term },
  rules: readonly (RuleEq | NamedEquation)[],
  options: { advisor?: Advisor; limit?: number } = {},
): Promise<RankedOption[]> {
  const found: RewriteOption[] = [];
  for (const side of [1, 2] as const) {
    const t = side === 1 ? goal.lhs : goal.rhs;
    for (const path of positions(t)) {
      for (const rule of rules) {
        for (const dir of ['lr', 'rl'] as const) {
          const r = rewriteAt(bank, t, rule, dir, path);
          if (!r) continue;
          const lhs = side === 1 ? r : goal.lhs;
          const rhs = side === 2 ? r : goal.rhs;
          const arrow = dir === 'rl' ? '<-' : '';
          const bare = firstMatch(bank, goal, rule, dir) === [side, ...path].join('.');
          const command = bare ? `${rule.name}${arrow}` : `${rule.name}${arrow}@${[side, ...path].join('.')}`;
          found.push({ kind: 'rewrite', rule: rule.name, dir, side, path, lhs, rhs, estimate: termDistance(lhs, rhs), by: 'arbor', command });
        }
      }
    }
  }
  const middles: MiddleOption[] = [];
  const advisor = options.advisor;
  if (advisor && !advisor.broken) {
    try {
      // The client maps the goal's Skolem hashes back to its constants; a term with any other constant is no middle term.
      const own = new Set(constantsInOrder(bank, [goal.lhs, goal.rhs]));
      for (const k of await advisor.pair(goal.lhs, goal.rhs)) {
        if (!k.ground || k === goal.lhs || k === goal.rhs || !constantsInOrder(bank, [k]).every((c) => own.has(c))) continue;
        const text = printTerm(bank, k);
        middles.push({ kind: 'middle', term: text, command: `trans "${text}"` });
      }
      await adviseEstimates(advisor, goal, found);
    } catch {
      // A silent or broken advisor leaves Arbor's own estimates in place.
    }
  }
  const ranked = found.sort((a, b) => a.estimate - b.estimate);
  return [...middles, ...ranked.slice(0, options.limit ?? ranked.length)];
}

/** Where the bare `RULE name[<-]` rewrites (the session's order: left side first, preorder), as `side.path`. */
function firstMatch(bank: TermBank, goal: { lhs: Term; rhs: Term }, rule: RuleEq, dir: Direction): string | undefined {
  const l = rewriteFirst(bank, goal.lhs, rule, dir);
  if (l) return [1, ...l.pos].join('.');
  const r = rewriteFirst(bank, goal.rhs, rule, dir);
  return r ? [2, ...r.pos].join('.') : undefined;
}

/**
 * One batch request per cursor position (AIMLEAP's state message, then the mask of its rewrites).
 * Slots are AIMLEAP's by equation name; a rule AIMLEAP has no number for (a HAVE lemma) keeps Arbor's estimate.
 */
async function adviseEstimates(advisor: Advisor, goal: { lhs: Term; rhs: Term }, found: RewriteOption[]): Promise<void> {
  const groups = new Map<string, RewriteOption[]>();
  for (const o of found) {
    if (rewriteSlot(o.rule, o.dir) === undefined) continue;
    const key = [o.side, ...o.path].join('.');
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  for (const opts of groups.values()) {
    const first = opts[0] as RewriteOption;
    advisor.state(0, goal.lhs, goal.rhs, { left: first.side === 1, pos: first.path });
    const mask = new Array<number>(OPTION_SLOTS).fill(0);
    const slots = opts.map((o) => rewriteSlot(o.rule, o.dir) as number);
    for (const s of slots) mask[s] = 1;
    const estimates = await advisor.batch(mask);
    const ordered = [...new Set(slots)].sort((a, b) => a - b);
    opts.forEach((o, i) => {
      const e = estimates[ordered.indexOf(slots[i] as number)];
      if (e !== undefined) Object.assign(o, { estimate: e, by: 'advisor' });
    });
  }
}
