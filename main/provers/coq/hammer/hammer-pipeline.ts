import type { DiscoveredLemma, HammerReport, HammerStage } from '../../../../shared/protocol/hammer-report.ts';
import type { ContextEntry, OpenGoal } from '../../../../shared/proof-tree/proof-state.ts';
import { ProverError } from '../../../shell/prover-session.ts';
import type { HammerAttempt, HammerGoal, HammerPort } from './hammer-port.ts';
import { type PortfolioTactic, inductionTactics, inductionWithPremisesTactics, nestedInductionTactics, recursionDepths, recursionInductionTactics, wantsWitness, WHOLE_GOAL_PORTFOLIO, witnessTactics } from './hammer-portfolio.ts';
import { reconstructionFrom, reconstructionVariants } from './hammer-reconstruction.ts';
import { existentialBinder, typedWitnessTactics } from './typed-witness.ts';
import { contextCandidates } from './context-candidates.ts';
import { declaredLemmas, unfoldableDefinitions, unfoldedTactics, withUnfolded } from './unfold-definitions.ts';
import { arrowParts, refutationPlan, refutingInstance, type ConstructorShape } from './instance-refutation.ts';
import { conjectures, fixpointSignatures, genericClosers, refutationTactic, type Conjecture } from './lemma-discovery.ts';
import { compoundSubterms, fertilised, subtermConjectures } from './subterm-generalisation.ts';
import { isEquation, type Premise, premiseTactics } from './premise-selection.ts';
import { nameOccurrence } from '../../../../shared/protocol/name-pattern.ts';

/** Below this much of a slice left, a tactic is not started (a Coq call's round trip at load takes about this). */
const MIN_TRY_MS = 200;

/** Limit for calls that only parse or move the tip (`intros`, an `assert` without its proof), as in the session. */
const ROUND_TRIP_MS = 5000;
/** Quick closers tried on each subgoal before CoqHammer's `hammer` (seed 000: blast 1 s, fastforce 2 s). */
const QUICK: { tac: string; secs: number }[] = [
  { tac: 'solve [congruence]', secs: 1 },
  { tac: 'solve [lia]', secs: 1 },
  { tac: 'solve [sfirstorder]', secs: 1 },
  { tac: 'solve [sauto limit: 1000]', secs: 2 },
];

const secs = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * HAMMER's pipeline on the first goal of a Coq session, through the session's `HammerPort`: refutation,
 * the whole-goal portfolio, induction, lemma discovery, CRUSH, then quick closers and CoqHammer per subgoal.
 * A look-ahead (`intros` to read the goal's variables, a refuted conjecture) is always rewound.
 */
export class HammerPipeline {
  /** The lemmas premise selection chose for the goal being hammered (the induction stage uses them too). */
  private premises: Premise[] = [];

  constructor(private readonly port: HammerPort) {}

  private get current(): readonly HammerGoal[] {
    return this.port.current();
  }

  private get hardDeadline(): number | undefined {
    return this.port.deadline();
  }

  private get timeoutMs(): number {
    return this.port.timeoutMs;
  }

  private get refute(): HammerPort['refute'] {
    return this.port.refute;
  }

  private attempt(sentences: string[], wantedMs: number): Promise<HammerAttempt> {
    return this.port.attempt(sentences, wantedMs);
  }

  private rewind(len: number): Promise<void> {
    return this.port.rewind(len);
  }

  private classify(goals: readonly HammerGoal[]): Promise<OpenGoal[]> {
    return this.port.classify(goals);
  }

  private crush(rules: string[], limitMs: number): Promise<string> {
    return this.port.crush(rules, limitMs);
  }

  private declarationSentences(): string[] {
    return this.port.declarations();
  }

  private isTimeout(e: unknown): boolean {
    return this.port.toProverError(e).code === 'timeout';
  }

  /**
   * HAMMER (issue 13): refutation first; then the portfolio on the original goal, cheapest first
   * (decision procedures, rewriting, sauto), then induction on each candidate variable — each within its
   * slice of the budget; then CRUSH, and per subgoal it left quick closers and CoqHammer with the rest.
   */
  async hammer(requestedMs: number): Promise<{ script: string[]; messages: string[]; report: HammerReport }> {
    const started = Date.now();
    // The user's budget is a wall-clock limit, loaded machine or not: every slice is cut from what is left.
    const budgetMs = requestedMs;
    const deadline = Math.min(started + budgetMs, this.hardDeadline ?? Infinity);
    const left = (): number => deadline - Date.now();
    const others = this.current.length - 1;
    const script: string[] = [];
    const messages: string[] = [];
    const stages: HammerStage[] = [];
    const discovered: DiscoveredLemma[] = [];
    this.premises = [];
    const report = (): HammerReport => ({ stages, ms: Date.now() - started, ...(discovered.length > 0 ? { discovered } : {}) });
    try {
      const done = await this.hammerStages({ started, budgetMs, left, others, script, messages, stages, discovered, report });
      // Proved: the session lifts the deadline, since what the step does after (Unshelve, reading the goals) is not the search.
      return done;
    } catch (e) {
      // Stopped at the deadline in the middle of a stage, or killed there (a call deaf to SIGINT): the answer still says what was tried.
      if (!this.isTimeout(e)) throw e;
      const stopped = this.port.toProverError(e);
      if (stopped.report === undefined) stopped.report = report();
      throw stopped;
    }
  }

  private async hammerStages(h: {
    started: number; budgetMs: number; left: () => number; others: number; script: string[]; messages: string[];
    stages: HammerStage[]; discovered: DiscoveredLemma[]; report: () => HammerReport;
  }): Promise<{ script: string[]; messages: string[]; report: HammerReport }> {
    const { started, budgetMs, left, others, script, messages, stages, discovered, report } = h;
    const refuted = await this.refuteFirst(stages, left);
    if (refuted) throw new ProverError('fail', `the goal is false: ${refuted} (a counterexample Coq checked)`, report());
    // The whole goal through the portfolio, then induction, within their shares of the budget.
    const whole = await this.wholeGoal(started + budgetMs * 0.45, stages);
    if (whole !== undefined) return { script: [`${whole}.`], messages, report: { ...report(), closedWith: whole } };
    const inducted = await this.byInduction(started + budgetMs * 0.7, stages);
    if (inducted !== undefined) return { script: [`${inducted}.`], messages, report: { ...report(), closedWith: inducted } };
    // Lemma discovery: its own slice (at most a quarter of the budget), never what CRUSH and CoqHammer need last.
    const withLemma = await this.discover(Math.min(started + budgetMs * 0.9, Date.now() + budgetMs * 0.25), stages, discovered);
    if (withLemma !== undefined) return { script: withLemma, messages, report: { ...report(), closedWith: withLemma.join(' ') } };
    const crushStart = Date.now();
    try {
      script.push(await this.crush([], Math.min(this.timeoutMs, Math.max(1000, budgetMs / 4), Math.max(0, left()))));
      stages.push({ stage: 'crush', ms: Date.now() - crushStart, outcome: this.current.length > others ? 'progress' : 'closed' });
    } catch (e) {
      if (!(e instanceof ProverError) || (e.code !== 'fail' && e.code !== 'timeout')) throw e;
      stages.push({ stage: 'crush', ms: Date.now() - crushStart, outcome: e.code === 'timeout' ? 'timeout' : 'failed' });
    }
    while (this.current.length > others) {
      if (left() <= 0) throw new ProverError('timeout', 'timeout', report());
      const tac = await this.closeFirst(left, messages, stages);
      // Every stage tried before the deadline: say so in words (HAMMER_REPORT has each stage), not a bare `fail`.
      if (tac === undefined) throw new ProverError(left() <= 0 ? 'timeout' : 'fail', left() <= 0 ? 'timeout' : 'no stage proved the goal (HAMMER_REPORT lists what each tried); it may be false, or need a lemma or an induction by hand', report());
      script.push(`${tac}.`);
    }
    return { script, messages, report: { ...report(), closedWith: script.join(' ') } };
  }

  /** The current goal as one closed statement (`forall (x : T), H -> goal`), for the counterexample search. */
  private async closedStatement(): Promise<string | undefined> {
    const raw = this.current[0];
    if (!raw) return undefined;
    // A let-bound name (`x := 5 : nat`) is not a free variable: generalising it could make a true goal look false.
    if (raw.hyps.flatMap((h) => this.port.hypotheses(h)).some((h) => h.body !== undefined)) return undefined;
    const [goal] = await this.classify([raw]);
    if (!goal) return undefined;
    let text = `(${goal.goal})`;
    for (const e of [...goal.context].reverse()) text = e.kind === 'var' ? `forall (${e.name} : ${e.text}), ${text}` : `(${e.text}) -> ${text}`;
    return text;
  }

  /**
   * Refutation first: a false goal is reported with its instance before any budget goes to proving it.
   * The search runs in the document's environment (instance-refutation.ts): this coqidetop, at its tip,
   * proves the negation of the goal's closure at small values. The fidelity engine's search (the
   * supervisor's `refute`, which knows Z and real arithmetic but checks in an empty environment) runs only
   * when the document declares nothing of its own, so its `max` is the library's.
   */
  private async refuteFirst(stages: HammerStage[], left: () => number): Promise<string | undefined> {
    const t0 = Date.now();
    const own = await this.refuteHere(Math.min(5000, Math.max(1000, left() / 5), left())).catch((e: unknown) => {
      // The deadline, or a prover that died, ends the HAMMER; anything else only ends this search.
      if ((this.isTimeout(e) && left() <= 0) || this.port.fatal(e)) throw e;
      return undefined;
    });
    if (own !== undefined) {
      // The detail is the instance alone: it is what Messages and the tools show as the counterexample.
      stages.push({ stage: 'refutation', ms: Date.now() - t0, outcome: 'refuted', detail: own });
      return own;
    }
    const declaresNothing = this.port.declaresNothing();
    if (!this.refute || !declaresNothing) {
      stages.push({ stage: 'refutation', ms: Date.now() - t0, outcome: 'failed', detail: 'no counterexample on small instances' });
      return undefined;
    }
    const statement = await this.closedStatement();
    if (statement === undefined) return undefined;
    const found = await this.refute(statement, Math.min(10_000, Math.max(2000, left() / 4), Math.max(0, left()))).catch(() => undefined);
    stages.push({ stage: 'refutation', ms: Date.now() - t0, outcome: found ? 'refuted' : 'failed', detail: found ? found.summary : 'no counterexample on small instances' });
    return found?.summary;
  }

  /** The in-session search: the instance (`n = 1`) when Coq proved the goal's closure false there. */
  private async refuteHere(limitMs: number): Promise<string | undefined> {
    const raw = this.current[0];
    // A let-bound name (`x := 5 : nat`) is not a free variable: generalising it could make a true goal look false.
    if (!raw || raw.hyps.flatMap((h) => this.port.hypotheses(h)).some((h) => h.body !== undefined) || /\blet\b/.test(raw.goal)) return undefined;
    const shape = await this.afterIntros();
    if (!shape || shape.goal === '') return undefined;
    const context = shape.context.map((e) => ({ kind: e.kind === 'var' ? 'var' as const : 'hyp' as const, name: e.name, text: flat(e.text) }));
    const plan = refutationPlan(context, flat(shape.goal), await this.inductiveShapes(context.filter((e) => e.kind === 'var').map((e) => e.text)));
    if (plan === undefined || [plan.statement, plan.tactic].some((t) => this.port.fragmentProblem(t) !== undefined)) return undefined;
    const len = this.port.length();
    const saved = this.port.keepGoals();
    const secsNow = Math.max(1, Math.floor(limitMs / 1000));
    // `clear` first: the closure states every hypothesis it may use; a section's `Hypothesis H : False` left in
    // scope would "refute" any goal, true ones included (`rev [] = []`).
    const r = await this.attempt([`Timeout ${secsNow} (assert (~ (${plan.statement})) by (clear; ${plan.tactic})).`], secsNow * 1000);
    if (!r.ok) return undefined;
    // Only the answer stays: the document and its goals are as they were.
    await this.rewind(len);
    saved();
    return refutingInstance(plan, r.messages.map((m) => m.text)) ?? 'an instance of small values (Coq proved the negation)';
  }

  /** The constructors of the document's inductive types among `types` (`Print`), for the counterexample search. */
  private async inductiveShapes(types: string[]): Promise<Map<string, ConstructorShape[]>> {
    const out = new Map<string, ConstructorShape[]>();
    const heads = new Set(types.flatMap((t) => t.match(/[\p{L}_][\p{L}\p{N}_'.]*/gu) ?? []));
    for (const head of heads) {
      if (/^(nat|bool|unit|Z|N|positive|list|option|prod|Type|Set|Prop|forall)$/.test(head) || !this.port.isIdent(head)) continue;
      const printed = await this.port.query(`Print Term ${head}.`).catch(() => '');
      if (!/^\s*(Inductive|Variant)\s/.test(printed)) continue;
      const ctors = this.port.constructorsOf(printed, head).map((c) => ({ name: c.name, parts: arrowParts(c.type) }));
      // Only a type of its own (no parameters, no dependent constructor types).
      if (ctors.length === 0 || ctors.some((c) => c.parts.at(-1) !== head || c.parts.some((p) => /^forall\b/.test(p)))) continue;
      out.set(head, ctors.map((c) => ({ name: c.name, args: c.parts.slice(0, -1) })));
    }
    return out;
  }

  /**
   * Each portfolio tactic on the whole goal, until one closes it or the stage's deadline passes; the
   * document's own finished theorems come first, as rewrites and as premises.
   */
  private async wholeGoal(until: number, stages: HammerStage[]): Promise<string | undefined> {
    const own = this.port.theorems().slice(-12);
    const first: PortfolioTactic[] = own.length === 0 ? [] : [
      { stage: 'rewrite' as const, tactic: `solve [intros; simpl in *; rewrite ?${own.join(', ?')} in *; simpl in *; (lia || congruence || reflexivity || auto)]`, secs: 2 },
      { stage: 'sauto' as const, tactic: `solve [hauto use: ${own.join(', ')}]`, secs: 2 },
    ];
    // The document's own definitions the goal mentions, unfolded, then its theorems (CoqHammer's `sauto unfold:`).
    const defs = unfoldableDefinitions(this.declarationSentences(), this.current[0]?.goal ?? '');
    const lemmas = [...new Set([...declaredLemmas(this.declarationSentences()).slice(-6), ...own.slice(-6)])];
    if (defs.length > 0) first.push(...unfoldedTactics(defs, lemmas).map((tactic) => ({ stage: 'sauto' as const, tactic, secs: 2 })));
    // An existential or divisibility goal: witnesses from its variables, right after the decision procedures.
    const shape = await this.afterIntros();
    const witnesses: PortfolioTactic[] = shape && wantsWitness(shape.goal) ? witnessTactics(shape.vars.filter((e) => e.text === 'nat').map((e) => e.name), shape.vars.map((e) => e.name), flat(shape.goal)) : [];
    // Then the small values of the bound variable's own type (the document's constructors, lists, booleans…).
    const binder = shape ? existentialBinder(flat(shape.goal)) : undefined;
    if (binder) witnesses.push(...typedWitnessTactics(binder, await this.inductiveShapes([binder.type])).filter((t) => this.port.fragmentProblem(t.tactic) === undefined));
    // The obvious first: decision procedures, witnesses, the document's last theorems, the library's rewrites.
    const decided = await this.firstClosing([
      ...WHOLE_GOAL_PORTFOLIO.filter((p) => p.stage === 'decision'), ...witnesses, ...first, ...WHOLE_GOAL_PORTFOLIO.filter((p) => p.stage === 'rewrite'),
    ], until, stages);
    if (decided !== undefined) return decided;
    // The lemmas in scope that share the goal's rarest constants, before the searches that know none of them.
    const premises = await this.premisesHere(Math.min(until, Date.now() + 3000), stages);
    return this.firstClosing([...premises, ...WHOLE_GOAL_PORTFOLIO.filter((p) => p.stage !== 'decision' && p.stage !== 'rewrite')], until, stages);
  }

  /** Premise selection (premise-search.ts): the ranked lemmas as tactics, and a stage entry saying which were chosen. */
  private async premisesHere(deadline: number, stages: HammerStage[]): Promise<{ stage: 'premises'; tactic: string; secs: number }[]> {
    const t0 = Date.now();
    const { constants, premises } = await this.port.premises(deadline);
    this.premises = premises;
    stages.push({
      stage: 'premises', ms: Date.now() - t0, outcome: premises.length > 0 ? 'progress' : 'skipped',
      detail: premises.length > 0 ? `${premises.map((p) => p.name).join(', ')} (sharing ${constants.join(', ')})` : 'no lemma in scope shares the goal\'s constants',
    });
    return premiseTactics(premises).map((tactic) => ({ stage: 'premises' as const, tactic, secs: 2 }));
  }

  /** The variables `intros` introduces (names and types) and the goal it leaves; the document and goals stay as they were. */
  private async afterIntros(): Promise<{ vars: ContextEntry[]; context: ContextEntry[]; goal: string } | undefined> {
    const before = new Set((this.current[0]?.hyps ?? []).flatMap((h) => this.port.hypotheses(h)).map((h) => h.name));
    const saved = this.port.keepGoals();
    const len = this.port.length();
    const intro = await this.attempt(['intros.'], ROUND_TRIP_MS);
    if (!intro.ok) return undefined;
    const [goal] = await this.classify(this.current.slice(0, 1));
    await this.rewind(len);
    saved();
    const context = goal?.context ?? [];
    return { vars: context.filter((e) => e.kind === 'var' && !before.has(e.name)), context, goal: goal?.goal ?? '' };
  }

  /**
   * Induction (see hammer-portfolio.ts): structural on each variable of an inductive type the goal
   * quantifies over — first, when the goal mentions one of the document's functions that recurses two steps
   * at a time, strong induction shaped like it; then nested induction on two variables.
   */
  private async byInduction(until: number, stages: HammerStage[]): Promise<string | undefined> {
    const shape = await this.afterIntros();
    if (shape === undefined) return undefined;
    const introduced = shape.vars;
    const inductive = (e: ContextEntry): boolean => !/->|^(Type|Set|Prop|forall)\b/.test(e.text);
    // Then the variables already in the context (a section's `Variable`s, what the user introduced): a goal
    // stated inside a section quantifies over them there, not under a `forall` (context-candidates.ts).
    const candidates = [...introduced.filter(inductive).map((e) => e.name), ...contextCandidates(shape.context.filter(inductive), introduced).map((e) => e.name)];
    if (candidates.length === 0) {
      stages.push({ stage: 'induction', ms: 0, outcome: 'skipped', detail: 'no variable of an inductive type to induct on' });
      return undefined;
    }
    const all = introduced.map((e) => e.name);
    const natVars = introduced.filter((e) => e.text === 'nat').map((e) => e.name);
    const depths = recursionDepths(this.declarationSentences());
    const deep = [...depths.keys()].filter((f) => nameOccurrence(f).test(this.current[0]?.goal ?? ''));
    const depth = Math.max(2, ...deep.map((f) => depths.get(f) ?? 2));
    // A goal about a function that recurses two steps at a time is inducted on the way it recurses first:
    // that is the likeliest proof, and under load the stage's window may hold only one or two attempts.
    const tactics = [
      ...(deep.length > 0 ? recursionInductionTactics(natVars, candidates, all, deep, depth) : []),
      ...inductionTactics(candidates, all),
      ...(candidates.length >= 2 ? nestedInductionTactics(candidates, all) : []),
      // The chosen lemmas inside each case last: they help where the plain cases fail, and cost a slice each.
      ...inductionWithPremisesTactics(candidates, all, this.premises.map((p) => p.name), this.premises.filter((p) => isEquation(p.type)).map((p) => p.name)),
      // Last, the document's own definitions the goal mentions unfolded first, its latest theorems as the premises.
      ...withUnfolded(inductionWithPremisesTactics(candidates, all, [...declaredLemmas(this.declarationSentences()).slice(-3), ...this.port.theorems().slice(-3), ...this.premises.map((p) => p.name)], []), unfoldableDefinitions(this.declarationSentences(), shape.goal)),
    ];
    return this.firstClosing(tactics.map((tactic) => ({ stage: 'induction' as const, tactic, secs: 3 })), until, stages);
  }

  /**
   * Lemma discovery (see lemma-discovery.ts): each conjecture about the document's functions the goal
   * mentions is first refuted on small instances (Coq proves its negation: cheap, and a false lemma is never
   * used), else asserted and proved by its own induction tactics, and the goal retried with it. Returns the
   * script (`assert (L : …) by (…).` and the closing tactic) when one closed the goal. Every proved lemma goes
   * into `found`, used or not, so it can be offered as a `HAVE`.
   */
  private async discover(until: number, stages: HammerStage[], found: DiscoveredLemma[]): Promise<string[] | undefined> {
    const fns = this.declarationSentences().flatMap(fixpointSignatures);
    if (fns.length === 0) return undefined;
    const len = this.port.length();
    const goal = await this.afterIntros();
    if (!goal || goal.goal === '') return undefined;
    const view = { vars: goal.context.filter((e) => e.kind === 'var').map((e) => ({ name: e.name, type: e.text })), goal: goal.goal };
    const taken = new Set(goal.context.map((e) => e.name));
    // Templates first (cheap, no look-ahead), then the lemmas generalised from where induction got stuck.
    const stuck = await this.stuckConjectures(view, taken, until);
    // Built from printed goals and declarations: each piece must still be one sentence fragment (the injection guard).
    const candidates = [...conjectures(view, fns, taken), ...stuck.map((c) => ({ ...c, closers: genericClosers(c.name, view) }))]
      .filter((c) => [c.statement, ...c.proofs, ...c.closers].every((t) => this.port.fragmentProblem(t) === undefined));
    if (candidates.length === 0) {
      stages.push({ stage: 'discovery', ms: 0, outcome: 'skipped', detail: 'no conjecture about the document\'s functions fits this goal' });
      return undefined;
    }
    const firstLine = (e: unknown): string => this.port.toProverError(e).message.split('\n')[0]?.slice(0, 160) ?? '';
    for (const c of candidates) {
      const tactic = `assert (${c.name} : ${c.statement})`;
      if (until - Date.now() < 1000) {
        stages.push({ stage: 'discovery', tactic, ms: 0, outcome: 'skipped', detail: 'its share of the budget is spent' });
        continue;
      }
      const t0 = Date.now();
      const refutation = refutationTactic(c);
      if (refutation !== undefined) {
        const r = await this.attempt([`Timeout 2 (assert (~ (${c.statement})) by (${refutation})).`], 2000);
        if (r.ok) {
          await this.rewind(len);
          stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'refuted', detail: 'false on a small instance (Coq proved its negation): not used' });
          continue;
        }
      }
      const asserted = await this.attempt([`${tactic}.`], ROUND_TRIP_MS);
      if (!asserted.ok) {
        stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'failed', detail: `not a statement Coq accepts: ${firstLine(asserted.error)}` });
        continue;
      }
      // The conjecture's own induction first, then HAMMER's induction stage on it (each variable, the others generalised or not).
      const inductive = c.binders.filter((b) => /^(nat|list-)/.test(b.sort)).map((b) => b.name);
      const proofs = [...c.proofs, ...inductionTactics(inductive, c.binders.map((b) => b.name))];
      const proof = await this.firstClosing(proofs.map((p) => ({ stage: 'discovery' as const, tactic: p, secs: 2 })), until, []);
      if (proof === undefined) {
        await this.rewind(len);
        stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: Date.now() >= until ? 'timeout' : 'failed', detail: 'not proved' });
        continue;
      }
      // The goal again, the lemma now a hypothesis: a few more seconds than the slice if need be (it is proved).
      const closer = await this.firstClosing(c.closers.map((p) => ({ stage: 'discovery' as const, tactic: p, secs: 2 })), Math.max(until, Date.now() + 3000), []);
      found.push({ name: c.name, statement: c.statement, proof, used: closer !== undefined });
      if (closer !== undefined) {
        stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'closed', detail: `proved by ${proof}; the goal closed with it by ${closer}` });
        return [`${tactic} by (${proof}).`, `${closer}.`];
      }
      await this.rewind(len);
      stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'progress', detail: `proved by ${proof}, but the goal did not close with it` });
    }
    return undefined;
  }

  /**
   * Subterm generalisation (subterm-generalisation.ts): induction on each variable of an inductive type (at
   * most two), the cases simplified and the easy ones closed; on the first case left, its induction
   * hypotheses cross-fertilised and a subterm common to both sides generalised. Coq's `Check` types each
   * subterm. A look-ahead: rewound, the goals put back.
   */
  private async stuckConjectures(view: { vars: { name: string; type: string }[]; goal: string }, taken: ReadonlySet<string>, until: number): Promise<Conjecture[]> {
    const inductive = view.vars.filter((v) => !/->|^(Type|Set|Prop)\b/.test(v.type)).map((v) => v.name).slice(0, 2);
    const out: Conjecture[] = [];
    const base = /^[\p{L}_][\p{L}\p{N}_']*/u.exec(view.goal)?.[0] ?? 'lemma';
    for (const v of inductive) {
      if (until - Date.now() < 2000) break;
      const len = this.port.length();
      const saved = this.port.keepGoals();
      const before = this.current.length;
      try {
        const a = await this.attempt(['intros.', `induction ${v}.`, 'all: simpl in *.', 'all: try solve [reflexivity | congruence].'], ROUND_TRIP_MS);
        // Nothing left of the goal (induction closes it: that stage's business), or a failure.
        if (!a.ok || this.current.length < before) continue;
        const [g] = await this.classify(this.current.slice(0, 1));
        if (!g) continue;
        const stuck = { context: g.context.map((e) => ({ name: e.name, kind: e.kind, text: e.text })), goal: g.goal };
        const subs = [...new Set(fertilised(stuck).flatMap(compoundSubterms))].filter((t) => this.port.fragmentProblem(t) === undefined).slice(0, 8);
        const types = new Map<string, string>();
        for (const t of subs) {
          if (until - Date.now() < 1500) break;
          const printed = await this.port.query(`Check (${t}).`).catch(() => '');
          const type = /\n\s*:\s*([\s\S]+)$/.exec(printed.trim())?.[1]?.replace(/\s+/g, ' ').trim();
          if (type !== undefined && !/^(Prop|Type|Set)$/.test(type)) types.set(t, type);
        }
        out.push(...subtermConjectures(stuck, types, taken, base));
      } finally {
        await this.rewind(len);
        saved();
      }
    }
    const seen = new Set<string>();
    return out.filter((c) => !seen.has(c.statement) && seen.add(c.statement));
  }

  private async firstClosing(tactics: { stage: HammerStage['stage']; tactic: string; secs: number }[], until: number, stages: HammerStage[]): Promise<string | undefined> {
    const count = this.current.length;
    const end = Math.min(until, this.hardDeadline ?? Infinity);
    for (const t of tactics) {
      const leftMs = end - Date.now();
      // Coq's Timeout counts whole seconds, but what is left of a slice under one second still gets its try (the call
      // is interrupted at the slice's end): HAMMER 2 skipped a 20 ms rewrite and answered `fail` after 0.6 s.
      if (leftMs < MIN_TRY_MS) {
        stages.push({ stage: t.stage, tactic: t.tactic, ms: 0, outcome: 'skipped', detail: 'its share of the budget is spent' });
        continue;
      }
      const secsNow = Math.max(1, Math.min(t.secs, Math.floor(leftMs / 1000)));
      const t0 = Date.now();
      const a = await this.attempt([`Timeout ${secsNow} (${t.tactic}).`], Math.min(secsNow * 1000, leftMs));
      const closed = a.ok && this.current.length < count;
      stages.push({ stage: t.stage, tactic: t.tactic, ms: Date.now() - t0, outcome: closed ? 'closed' : !a.ok && this.isTimeout(a.error) ? 'timeout' : 'failed' });
      if (closed) return t.tactic;
      if (a.ok) await this.rewind(this.port.length() - 1);
    }
    return undefined;
  }

  /** Closes the first goal; returns the tactic that did it as it goes into the script. Records each stage. */
  private async closeFirst(left: () => number, messages: string[], stages: HammerStage[]): Promise<string | undefined> {
    const count = this.current.length;
    const firstLine = (e: unknown): string => this.port.toProverError(e).message.split('\n')[0]?.slice(0, 160) ?? '';
    for (const q of QUICK) {
      if (left() < q.secs * 1000) {
        stages.push({ stage: 'quick', tactic: q.tac, ms: 0, outcome: 'skipped', detail: 'budget spent' });
        break;
      }
      const t0 = Date.now();
      const a = await this.attempt([`Timeout ${q.secs} (${q.tac}).`], q.secs * 1000);
      const closed = a.ok && this.current.length < count;
      stages.push({ stage: 'quick', tactic: q.tac, ms: Date.now() - t0, outcome: closed ? 'closed' : !a.ok && this.isTimeout(a.error) ? 'timeout' : 'failed', ...(!a.ok ? { detail: firstLine(a.error) } : {}) });
      if (closed) return q.tac;
    }
    if (!this.port.plugin()) {
      stages.push({ stage: 'coqhammer', ms: 0, outcome: 'skipped', detail: 'CoqHammer is not installed' });
      return undefined;
    }
    const len = this.port.length();
    const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, Math.floor(x)));
    // CoqHammer gives up when its ATPs or its reconstruction run past their own limits, which happens on
    // a loaded machine (e.g. two channels hammering on two cores). While the budget lasts, try again with
    // limits twice as long.
    let h: HammerAttempt | undefined;
    if (left() < 2000) stages.push({ stage: 'coqhammer', ms: 0, outcome: 'skipped', detail: 'budget spent' });
    for (let scale = 1; scale <= 4 && left() >= 2000; scale *= 2) {
      const total = secs(left()) - 1;
      const started = Date.now();
      h = await this.attempt(
        [
          // 4 strategies instead of CoqHammer's 8: on two cores 8 ATP processes mostly wait for each other.
          'Set Hammer GSMode 4.',
          `Set Hammer ATPLimit ${clamp(total / 3, 2, 10 * scale)}.`,
          `Set Hammer ReconstrLimit ${clamp(total / 6, 1, 5 * scale)}.`,
          `Timeout ${total} hammer.`,
        ],
        total * 1000,
      );
      stages.push({ stage: 'coqhammer', ms: Date.now() - started, outcome: h.ok ? 'closed' : this.isTimeout(h.error) || /Timeout/.test(firstLine(h.error)) ? 'timeout' : 'failed', ...(!h.ok ? { detail: firstLine(h.error) } : { detail: `ATP limit ${clamp(total / 3, 2, 10 * scale)} s` }) });
      // A quick failure is not a time limit (e.g. a goal outside the ATPs' logic): longer limits won't help.
      if (h.ok || Date.now() - started < 1000) break;
    }
    // The hammer's own run never stays in the document: only its checked reconstruction does.
    if (!h?.ok) return undefined;
    const texts = h.messages.map((m) => m.text);
    messages.push(...texts.filter((m) => /succeeded|dependencies|Replace the hammer/.test(m)).map(flat));
    await this.rewind(len);
    const found = reconstructionFrom(texts);
    if (found === undefined) {
      stages.push({ stage: 'reconstruction', ms: 0, outcome: 'failed', detail: 'CoqHammer printed no reconstruction' });
      return undefined;
    }
    for (const v of reconstructionVariants(found)) {
      if (left() < 1000) {
        stages.push({ stage: 'reconstruction', tactic: v, ms: 0, outcome: 'skipped', detail: 'budget spent' });
        break;
      }
      const t0 = Date.now();
      const a = await this.attempt([`Timeout ${Math.floor(left() / 1000)} (${v}).`], left());
      const closed = a.ok && this.current.length < count;
      stages.push({ stage: 'reconstruction', tactic: v, ms: Date.now() - t0, outcome: closed ? 'closed' : 'failed', ...(!a.ok ? { detail: firstLine(a.error) } : {}) });
      if (closed) return v;
      if (a.ok) await this.rewind(len);
    }
    return undefined;
  }

}
