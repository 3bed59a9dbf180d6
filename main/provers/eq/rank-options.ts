/**
 * The advisor's view of one equation goal, for people: every rewrite that applies somewhere in the
 * goal (AIMLEAP's rewrite options, over all cursor positions at once) with the estimated distance to
 * success after it, best first, plus the middle terms an external advisor proposes. Estimates come from
 * the external AIMLEAP advisor when one is given (its batch reply per cursor position), else from
 * Arbor's own estimator (`termDistance` of the new pair; 0 means the rewrite closes the goal).
 */
import type { Advisor } from './advisor-client.ts';
import { OPTION_SLOTS, skolemHex } from './advisor-codec.ts';
import { termDistance } from './advisor-estimator.ts';
import type { NamedEquation } from './article.ts';
import type { Direction } from './proof.ts';
import { rewriteAt, rewriteFirst, type RuleEq } from './rewrite.ts';
import { constantsInOrder, FIRST_CONSTANT, positions, printTerm, type Term, type TermBank } from './term.ts';

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

/** The AIMLEAP option slot of a rewrite with the equation of index `i` (3 cursor moves come first). */
const slotOf = (index: number, dir: Direction): number => 3 + 2 * index + (dir === 'rl' ? 1 : 0);

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
      // The advisor names constants by hash (skolemHex): map them back to the goal's names.
      const names = new Map(constantsInOrder(bank, [goal.lhs, goal.rhs]).map((n) => [skolemHex(n), n]));
      for (const hashed of await advisor.pair(goal.lhs, goal.rhs)) {
        const k = renameConstants(bank, hashed, names);
        if (!k?.ground) continue;
        const text = printTerm(bank, k);
        middles.push({ kind: 'middle', term: text, command: `trans "${text}"` });
      }
      await adviseEstimates(advisor, goal, rules, found);
    } catch {
      // A silent or broken advisor leaves Arbor's own estimates in place.
    }
  }
  const ranked = found.sort((a, b) => a.estimate - b.estimate);
  return [...middles, ...ranked.slice(0, options.limit ?? ranked.length)];
}

/** `t` with hashed constants renamed; undefined when it has a constant the goal does not (not a usable middle term). */
function renameConstants(bank: TermBank, t: Term, names: Map<string, string>): Term | undefined {
  if (t.f >= FIRST_CONSTANT) {
    const name = bank.symbolName(t.f);
    const back = names.get(name) ?? ([...names.values()].includes(name) ? name : undefined);
    return back === undefined ? undefined : bank.const(back);
  }
  const args: Term[] = [];
  for (const a of t.args) {
    const r = renameConstants(bank, a, names);
    if (!r) return undefined;
    args.push(r);
  }
  return args.length ? bank.app(t.f, args) : t;
}

/** Where the bare `RULE name[<-]` rewrites (the session's order: left side first, preorder), as `side.path`. */
function firstMatch(bank: TermBank, goal: { lhs: Term; rhs: Term }, rule: RuleEq, dir: Direction): string | undefined {
  const l = rewriteFirst(bank, goal.lhs, rule, dir);
  if (l) return [1, ...l.pos].join('.');
  const r = rewriteFirst(bank, goal.rhs, rule, dir);
  return r ? [2, ...r.pos].join('.') : undefined;
}

/** One batch request per cursor position (AIMLEAP's state message, then the mask of its rewrites). */
async function adviseEstimates(advisor: Advisor, goal: { lhs: Term; rhs: Term }, rules: readonly (RuleEq | NamedEquation)[], found: RewriteOption[]): Promise<void> {
  const groups = new Map<string, RewriteOption[]>();
  for (const o of found) {
    const rule = rules.find((r) => r.name === o.rule);
    if (!rule || !('index' in rule) || slotOf(rule.index, o.dir) >= OPTION_SLOTS) continue;
    const key = [o.side, ...o.path].join('.');
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  for (const opts of groups.values()) {
    const first = opts[0] as RewriteOption;
    advisor.state(0, goal.lhs, goal.rhs, { left: first.side === 1, pos: first.path });
    const mask = new Array<number>(OPTION_SLOTS).fill(0);
    const slots = opts.map((o) => slotOf((rules.find((r) => r.name === o.rule) as NamedEquation).index, o.dir));
    for (const s of slots) mask[s] = 1;
    const estimates = await advisor.batch(mask);
    const ordered = [...new Set(slots)].sort((a, b) => a - b);
    opts.forEach((o, i) => {
      const e = estimates[ordered.indexOf(slots[i] as number)];
      if (e !== undefined) Object.assign(o, { estimate: e, by: 'advisor' });
    });
  }
}
