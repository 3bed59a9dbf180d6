/**
 * The eq backend's `ProverSession`: equation goals `s = t` over an ARTICLE (its axioms,
 * definitions and known lemmas are the usable equations). Goal variables are fixed constants.
 *
 * Steps: `RULE name[<-][@side.path]` rewrites once (side 1 = left, 2 = right; without a position the
 * first match, left side first, preorder); `UNFOLD op` unfolds a defined operation everywhere (or
 * rewrites everywhere with a named equation); `CRUSH` normalises both sides with the equations that
 * decrease in KBO; `HAVE name "u = v"` proves a universally quantified lemma first, then offers it
 * as a rule; `APPLY trans "k"` splits `s = t` into `s = k` and `k = t`; `APPLY sym` swaps the sides;
 * `HAMMER` runs the portfolio (the advisor when configured, E prover replayed, own completion).
 *
 * Each step's script fragment is a JSON comment; `renderScript` assembles them into one rewrite
 * chain (checked by `checkProof`) and prints it as a Coq script.
 */
import { parseArticle, type Article } from './article.ts';
import { renderCoq } from './coq-script.ts';
import { DEFAULT_PRELUDE } from './default-prelude.ts';
import { type AdvisorSettings, hammer, parseAdvisorAddress } from './hammer.ts';
import { parseEquation, TermSyntaxError } from './parse-term.ts';
import type { ChainStep, Direction, ProofJson, StepJson } from './proof.ts';
import { importProof } from './proof-import.ts';
import { proofToJson } from './proof-json.ts';
import { normalizeDecreasing, rewriteAt, rewriteFirst, type RuleEq } from './rewrite.ts';
import { constantsInOrder, DEFINED, positions, printTerm, subtermAt, type Term, TermBank } from './term.ts';
import type { BackendId, Checkpoint, PrintMode, ProofStep, ProverSession, SessionOptions, StepOutcome } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import type { OpenGoal } from '../../../shared/proof-tree/proof-state.ts';

interface GoalState {
  id: number;
  lhs: Term;
  rhs: Term;
  names: string[];
  hyps: string[];
  /** The statement this goal's constants were fixed in (the GOAL, or a HAVE's lemma): AIMLEAP's Skolem hashes come from it. */
  theorem: { lhs: Term; rhs: Term };
}

interface State {
  goals: GoalState[];
  lemmas: Map<string, RuleEq>;
  nextId: number;
}

type Fragment =
  | { op: 'start'; id: number; goal: string }
  | { op: 'rw'; id: number; next: number; lhs: StepJson[]; rhs: StepJson[] }
  | { op: 'trans'; id: number; left: number; right: number }
  | { op: 'have'; id: number; name: string; statement: string; lemmaGoal: number; cont: number }
  | { op: 'close'; id: number; lemmas: ProofJson['lemmas']; steps: StepJson[] };

const FRAGMENT_PREFIX = '(* arbor-eq ';
const frag = (f: Fragment): string => `${FRAGMENT_PREFIX}${JSON.stringify(f)} *)`;

export function parseFragments(steps: string[][]): Fragment[] {
  const out: Fragment[] = [];
  for (const lines of steps) for (const l of lines) if (l.startsWith(FRAGMENT_PREFIX)) out.push(JSON.parse(l.slice(FRAGMENT_PREFIX.length, -3)) as Fragment);
  return out;
}

/** The session's proof so far as one rewrite-chain proof, or undefined while goals are open. */
export function proofFromFragments(fragments: Fragment[]): ProofJson | undefined {
  const byId = new Map<number, Fragment>();
  let root: Extract<Fragment, { op: 'start' }> | undefined;
  for (const f of fragments) {
    if (f.op === 'start') {
      root = f;
      byId.clear();
    } else byId.set(f.id, f);
  }
  if (!root) return undefined;
  const lemmas: ProofJson['lemmas'] = [];
  const flipSteps = (startTerm: string, steps: StepJson[]): StepJson[] =>
    steps.map((_, k) => {
      const s = steps[steps.length - 1 - k] as StepJson;
      const before = steps.length - 2 - k >= 0 ? (steps[steps.length - 2 - k] as StepJson).term : startTerm;
      return { by: s.by, dir: s.dir === 'lr' ? 'rl' : 'lr', pos: s.pos, term: before };
    });
  // chain(id, lhsText, rhsText): steps from the goal's left side to its right side.
  const chain = (id: number, rhsText: string): StepJson[] | undefined => {
    const f = byId.get(id);
    if (!f) return undefined;
    if (f.op === 'close') {
      lemmas.push(...f.lemmas);
      return f.steps;
    }
    if (f.op === 'rw') {
      const inner = chain(f.next, f.rhs.length ? (f.rhs[f.rhs.length - 1] as StepJson).term : rhsText);
      if (!inner) return undefined;
      return [...f.lhs, ...inner, ...flipSteps(rhsText, f.rhs)];
    }
    if (f.op === 'trans') {
      const a = chain(f.left, '');
      const b = chain(f.right, rhsText);
      return a && b ? [...a, ...b] : undefined;
    }
    if (f.op === 'have') {
      const lemmaEnd = f.statement.split(' = ').slice(1).join(' = ');
      const l = chain(f.lemmaGoal, lemmaEnd);
      if (!l) return undefined;
      lemmas.push({ name: f.name, statement: f.statement, steps: l });
      return chain(f.cont, rhsText);
    }
    return undefined;
  };
  const rhsText = root.goal.split(' = ').slice(1).join(' = ');
  const steps = chain(root.id, rhsText);
  if (!steps) return undefined;
  const bank = new TermBank();
  const g = parseEquation(bank, root.goal, { names: 'constants' });
  return { goal: root.goal, constants: constantsInOrder(bank, [g.lhs, g.rhs]), lemmas, steps };
}

function parseRuleSpec(spec: string): { name: string; dir: Direction; side?: 1 | 2; path?: number[] } {
  const m = /^\s*([A-Za-z0-9_']+)\s*(<-|->)?\s*(?:@\s*([12](?:\.\d+)*))?\s*$/.exec(spec);
  if (!m) throw new ProverError('parse', `parse error: RULE expects name[<-][@side.path], got '${spec}'`);
  const dir: Direction = m[2] === '<-' ? 'rl' : 'lr';
  if (!m[3]) return { name: m[1] as string, dir };
  const parts = (m[3] as string).split('.').map(Number);
  return { name: m[1] as string, dir, side: parts[0] as 1 | 2, path: parts.slice(1) };
}

export class EqSession implements ProverSession {
  readonly backend: BackendId = 'eq';
  private readonly bank = new TermBank();
  private readonly article: Article;
  private readonly articleText: string;
  private state: State = { goals: [], lemmas: new Map(), nextId: 1 };
  /** `backendOptions.advisor` (HOST:PORT): HAMMER asks this AIMLEAP advisor first. */
  private readonly advisor: AdvisorSettings | undefined;

  constructor(private readonly options: SessionOptions) {
    const advisor = options.backendOptions?.['advisor'];
    this.advisor = advisor === undefined ? undefined : parseAdvisorAddress(advisor);
    if (advisor !== undefined && !this.advisor) throw new ProverError('parse', `parse error: advisor must be HOST:PORT, got '${advisor}'`);
    // An equational prelude declares equations, never proofs: a client's replaces the user's, as before.
    const prelude = [options.prelude, options.untrustedPrelude].filter((p) => p !== undefined && p.trim() !== '').join('\n');
    this.articleText = prelude.trim() ? prelude : DEFAULT_PRELUDE;
    try {
      this.article = parseArticle(this.bank, this.articleText);
    } catch (err) {
      throw new ProverError('parse', `parse error: prelude is not an ARTICLE: ${(err as Error).message}`);
    }
  }

  private print(t: Term): string {
    return printTerm(this.bank, t);
  }

  private outcome(script: string[], messages?: string[]): StepOutcome {
    return { goals: this.currentGoals(), script, checkpoint: this.state, ...(messages ? { messages } : {}) };
  }

  private currentGoals(): OpenGoal[] {
    return this.state.goals.map((g) => ({
      context: [
        ...g.names.map((n) => ({ kind: 'var' as const, name: n, text: 'G' })),
        ...g.hyps.map((h) => {
          const l = this.state.lemmas.get(h);
          return { kind: 'hyp' as const, name: h, text: l ? `${this.print(l.lhs)} = ${this.print(l.rhs)}` : '' };
        }),
      ],
      goal: `${this.print(g.lhs)} = ${this.print(g.rhs)}`,
    }));
  }

  private rule(g: GoalState, name: string): RuleEq {
    const lemma = g.hyps.includes(name) ? this.state.lemmas.get(name) : undefined;
    if (lemma) return lemma;
    const eq = this.article.byName.get(name);
    if (!eq) throw new ProverError('fail', `unknown equation ${name}`);
    return eq;
  }

  private rules(g: GoalState): RuleEq[] {
    return [...this.article.equations, ...g.hyps.map((h) => this.state.lemmas.get(h)).filter((x): x is RuleEq => x !== undefined)];
  }

  private parseGoal(text: string): { lhs: Term; rhs: Term; names: string[] } {
    try {
      const eq = parseEquation(this.bank, text, { names: 'constants' });
      return { lhs: eq.lhs, rhs: eq.rhs, names: constantsInOrder(this.bank, [eq.lhs, eq.rhs]) };
    } catch (err) {
      if (err instanceof TermSyntaxError) throw new ProverError('parse', `parse error: ${err.message}`);
      throw err;
    }
  }

  async start(goal: string): Promise<StepOutcome> {
    const g = this.parseGoal(goal);
    const text = `${this.print(g.lhs)} = ${this.print(g.rhs)}`;
    this.state = { goals: [{ id: 0, ...g, hyps: [], theorem: { lhs: g.lhs, rhs: g.rhs } }], lemmas: new Map(), nextId: 1 };
    return this.outcome([frag({ op: 'start', id: 0, goal: text })]);
  }

  private current(): GoalState {
    const g = this.state.goals[0];
    if (!g) throw new ProverError('fail', 'no goal');
    return g;
  }

  private stepJson(steps: ChainStep[]): StepJson[] {
    return steps.map((s) => ({ by: s.by, dir: s.dir, pos: [...s.pos], term: this.print(s.term) }));
  }

  /** Replace the current goal after rewriting its sides; closes it when the sides meet. */
  private rewritten(g: GoalState, lhsSteps: ChainStep[], rhsSteps: ChainStep[], extra: string[] = []): StepOutcome {
    const lhs = lhsSteps.length ? (lhsSteps[lhsSteps.length - 1] as ChainStep).term : g.lhs;
    const rhs = rhsSteps.length ? (rhsSteps[rhsSteps.length - 1] as ChainStep).term : g.rhs;
    const next = this.state.nextId;
    const script = [frag({ op: 'rw', id: g.id, next, lhs: this.stepJson(lhsSteps), rhs: this.stepJson(rhsSteps) })];
    const rest = this.state.goals.slice(1);
    if (lhs === rhs) {
      script.push(frag({ op: 'close', id: next, lemmas: [], steps: [] }));
      this.state = { ...this.state, goals: rest, nextId: next + 1 };
    } else {
      this.state = { ...this.state, goals: [{ ...g, id: next, lhs, rhs }, ...rest], nextId: next + 1 };
    }
    return this.outcome(script, extra.length ? extra : undefined);
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    const g = this.current();
    switch (step.kind) {
      case 'rule': {
        const spec = parseRuleSpec(step.rule);
        const rule = this.rule(g, spec.name);
        if (spec.side) {
          const side = spec.side === 1 ? g.lhs : g.rhs;
          const path = spec.path ?? [];
          if (!subtermAt(side, path)) throw new ProverError('fail', `no position ${spec.side}.${path.join('.')}`);
          const t = rewriteAt(this.bank, side, rule, spec.dir, path);
          if (!t) throw new ProverError('fail', `${spec.name} does not match at ${[spec.side, ...path].join('.')}`);
          const st: ChainStep = { by: rule.name, dir: spec.dir, pos: path, term: t };
          return spec.side === 1 ? this.rewritten(g, [st], []) : this.rewritten(g, [], [st]);
        }
        const l = rewriteFirst(this.bank, g.lhs, rule, spec.dir);
        if (l) return this.rewritten(g, [{ by: rule.name, dir: spec.dir, pos: l.pos, term: l.term }], []);
        const r = rewriteFirst(this.bank, g.rhs, rule, spec.dir);
        if (r) return this.rewritten(g, [], [{ by: rule.name, dir: spec.dir, pos: r.pos, term: r.term }]);
        throw new ProverError('fail', `${spec.name}${spec.dir === 'rl' ? '<-' : ''} matches nowhere in the goal`);
      }
      case 'unfold': {
        const name = step.rule.trim();
        const isDef = DEFINED[name] !== undefined && this.article.byName.get(name)?.kind === 'definition';
        if (!isDef && !this.article.byName.has(name) && !(g.hyps.includes(name))) throw new ProverError('bad rule', 'bad rule: not an equation');
        const rule = this.rule(g, name);
        const all = (t: Term): ChainStep[] => {
          const steps: ChainStep[] = [];
          let cur = t;
          for (let guard = 0; guard < 200; guard++) {
            const hit = positions(cur).reverse().find((p) => rewriteAt(this.bank, cur, rule, 'lr', p) !== undefined);
            if (!hit) break;
            cur = rewriteAt(this.bank, cur, rule, 'lr', hit) as Term;
            steps.push({ by: rule.name, dir: 'lr', pos: hit, term: cur });
            if (!isDef && guard > 50) break;
          }
          return steps;
        };
        const ls = all(g.lhs);
        const rs = all(g.rhs);
        if (!ls.length && !rs.length) throw new ProverError('fail', `nothing to unfold with ${name}`);
        return this.rewritten(g, ls, rs);
      }
      case 'crush': {
        const extra = step.rules.map((n) => this.rule(g, n));
        const rules = [...this.rules(g).filter((r) => this.article.byName.get(r.name)?.kind !== 'definition'), ...extra];
        const l = normalizeDecreasing(this.bank, g.lhs, rules);
        const r = normalizeDecreasing(this.bank, g.rhs, rules);
        if (!l.steps.length && !r.steps.length && g.lhs !== g.rhs) throw new ProverError('fail', 'CRUSH made no progress');
        return this.rewritten(g, l.steps, r.steps);
      }
      case 'have': {
        if (this.article.byName.has(step.name) || this.state.lemmas.has(step.name)) throw new ProverError('fail', `name ${step.name} is taken`);
        let eq;
        try {
          eq = parseEquation(this.bank, step.expr, { names: 'variables' });
        } catch (err) {
          throw new ProverError('parse', `parse error: ${(err as Error).message}`);
        }
        const lemma: RuleEq = { name: step.name, lhs: eq.lhs, rhs: eq.rhs };
        const statement = `${printTerm(this.bank, eq.lhs, (i) => eq.varNames[i] ?? `v${i}`)} = ${printTerm(this.bank, eq.rhs, (i) => eq.varNames[i] ?? `v${i}`)}`;
        const fixed = this.parseGoal(statement);
        const hId = this.state.nextId;
        const cId = hId + 1;
        const lemmas = new Map(this.state.lemmas);
        lemmas.set(step.name, lemma);
        this.state = {
          lemmas,
          nextId: cId + 1,
          goals: [{ id: hId, ...fixed, hyps: g.hyps, theorem: { lhs: fixed.lhs, rhs: fixed.rhs } }, { ...g, id: cId, hyps: [...g.hyps, step.name] }, ...this.state.goals.slice(1)],
        };
        return this.outcome([frag({ op: 'have', id: g.id, name: step.name, statement, lemmaGoal: hId, cont: cId })]);
      }
      case 'apply': {
        const tactic = step.tactic.trim();
        const trans = /^trans\s+"?([^"]+)"?$/.exec(tactic);
        if (trans) {
          let k: Term;
          try {
            k = this.parseGoal(`${trans[1] as string} = e`).lhs;
          } catch (err) {
            throw err instanceof ProverError ? err : new ProverError('parse', `parse error: ${(err as Error).message}`);
          }
          const a = this.state.nextId;
          const b = a + 1;
          this.state = { ...this.state, nextId: b + 1, goals: [{ ...g, id: a, rhs: k }, { ...g, id: b, lhs: k }, ...this.state.goals.slice(1)] };
          return this.outcome([frag({ op: 'trans', id: g.id, left: a, right: b })]);
        }
        throw new ProverError('parse', `parse error: unknown eq tactic '${tactic}' (known: trans "k")`);
      }
      case 'hammer': {
        const axioms = this.rules(g);
        const extraKnown = g.hyps.map((h) => {
          const l = this.state.lemmas.get(h) as RuleEq;
          return `Known ${h}: ${this.print(l.lhs)} = ${this.print(l.rhs)}.`;
        });
        const r = await hammer(this.bank, axioms, { lhs: g.lhs, rhs: g.rhs }, { timeoutMs: step.timeoutMs || this.options.timeoutMs, articleText: this.articleText, extraKnown, theorem: g.theorem, ...(this.advisor ? { advisor: this.advisor } : {}) });
        if (!r.proof) throw new ProverError('timeout', r.messages.length ? `timeout (${r.messages.join('; ')})` : 'timeout');
        const proof = proofToJson(this.bank, importProof(r.proof, this.bank, this.bank, { lemmaPrefix: `g${g.id}_` }));
        this.state = { ...this.state, goals: this.state.goals.slice(1) };
        return this.outcome([frag({ op: 'close', id: g.id, lemmas: proof.lemmas, steps: proof.steps })], r.messages);
      }
      case 'obtain':
        throw new ProverError('fail', 'OBTAIN is not available for equation goals (no existentials in the eq backend)');
    }
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
    this.state = checkpoint as State;
  }

  async goals(): Promise<OpenGoal[]> {
    return this.currentGoals();
  }

  async setPrintMode(_mode: PrintMode): Promise<void> {}

  renderScript(_goal: string, steps: string[][], openGoals: number): string {
    const fragments = parseFragments(steps);
    const proof = openGoals > 0 ? undefined : proofFromFragments(fragments);
    const start = fragments.find((f): f is Extract<Fragment, { op: 'start' }> => f.op === 'start');
    if (!proof) {
      const goalText = start?.goal ?? _goal;
      return [`(* Arbor eq: ${openGoals} goal(s) open; proof so far as rewrite fragments below *)`, ...steps.flat(), renderCoq(this.articleText, { goal: goalText, constants: [], lemmas: [], steps: [] }, 'goal', Math.max(1, openGoals))].join('\n');
    }
    const chain = [`(* rewrite chain for ${proof.goal}:`, ...proof.steps.map((s) => `   = ${s.term}   [${s.by}${s.dir === 'rl' ? '<-' : ''} @${s.pos.join('.') || 'root'}]`), '*)'];
    return [...chain, renderCoq(this.articleText, proof, 'goal')].join('\n');
  }

  /** The finished proof as a rewrite chain (JSON), for the independent checker. */
  proofJson(steps: string[][]): ProofJson | undefined {
    return proofFromFragments(parseFragments(steps));
  }

  async dispose(): Promise<void> {}
}

