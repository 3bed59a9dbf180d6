import type { ContextEntry, Goal } from '../proof-tree/proof-state.ts';
import { isBundle } from '../proof-tree/proof-state.ts';
import { PROVED_GOAL } from '../proof-tree/proof-tree.ts';
import { looksLikeState } from '../proof-tree/from-state-json.ts';
import { commandAt } from '../protocol/commands.ts';

/**
 * The derivation of a proof: every goal that ever existed, the command that acted on it and the goals it
 * produced, and how each branch was closed. The state (seed 000's bundle tree) shows only what is still
 * open; the derivation keeps closed branches, so a finished proof reads as a tree rather than one node.
 *
 * It is rebuilt from the seed-format states alone (what every response and every `--transcript` file
 * carries), so it works for the editor's history, an agent's transcript and a recorded session alike.
 * Each step acts on the leftmost leaf (BRIEF §3): a tactic replaces it by its n goals, which become the n
 * leftmost leaves of the next state (a single `True` leaf when it closed the goal); `END`/`NEXT` removes it.
 */

/** One step of a proof's linear history (after REVERTs were applied): the command and the state after it. */
export interface DerivationStep {
  step: number;
  /** The request as written (without channel id), e.g. `APPLY induction l`. */
  command: string;
  /** The state after the step (seed format). */
  state: Goal;
  /** The editor line the command came from, when known. */
  line?: number;
  /** How automation closed the goal when the step was an `END` that hammered (e.g. `srun eauto use: app_length`). */
  closedWith?: string;
}

/** `given-up`: the prover lists it as given up (`admit`), or a goal below it is: not proved. */
export type DerivationStatus = 'open' | 'proved' | 'closed' | 'given-up';

export interface DerivationAction {
  step: number;
  command: string;
  line?: number;
}

export interface DerivationNode {
  /** Stable within one derivation: the step that created the goal and its position among the step's goals. */
  key: string;
  goal: string;
  /** The goal's full context (every ancestor's context concatenated, as the seed's semantics says). */
  context: ContextEntry[];
  /** Names of the variables and hypotheses that enter here (not in the parent goal's context). */
  introduced: string[];
  /** The step that created the goal (1 for the proof's goal). */
  createdAt: number;
  /** The command that acted on the goal; absent while it is still open and untouched. */
  action?: DerivationAction;
  /** `closed`: removed by END; `proved`: shown proved (True) but not yet removed; `open`: still to do. */
  status: DerivationStatus;
  /** The step that acted on it gave up a goal (the prover's given-up list): never shown proved. */
  gaveUp?: true;
  /** The END that removed the goal, with the automation's tactic when END had to prove it first. */
  closedBy?: DerivationAction & { with?: string };
  /**
   * Names of the goal's context the step that acted on it used, as far as the prover's states tell: the
   * command (or the automation's tactic) names it, or it disappears or changes in a goal the step produced.
   */
  uses: string[];
  children: DerivationNode[];
}

export interface Derivation {
  root: DerivationNode | undefined;
  /** Steps whose states did not fit the rule above (e.g. a prover changed several goals); their effect is shown as well as it can be. */
  irregularSteps: number[];
}

export interface Leaf {
  goal: string;
  context: ContextEntry[];
}

/** The leaves of a seed-format state, left to right, each with its full context. */
export function stateLeaves(state: Goal): Leaf[] {
  const out: Leaf[] = [];
  const visit = (g: Goal, inherited: ContextEntry[]): void => {
    const context = [
      ...inherited,
      ...g.ctxt.vars.map((v): ContextEntry => ({ kind: 'var', name: v.name, text: v.type })),
      ...g.ctxt.hyps.map((h): ContextEntry => ({ kind: 'hyp', name: h.name, text: h.expr })),
    ];
    if (isBundle(g)) g.goal.forEach((child) => visit(child, context));
    else out.push({ goal: g.goal, context });
  };
  visit(state, []);
  return out;
}

const isEnd = (command: string): boolean => commandAt(command)?.closesGoal === true;
/** Commands that act on the current goal (the command table's `actsOnGoal`); others (LET, PRINT_MODE, queries) leave goals alone. */
const actsOnGoal = (command: string): boolean => commandAt(command)?.actsOnGoal === true;

/** Builds the derivation of one proof from its linear history; the first step must be its `GOAL`. */
export function buildDerivation(steps: readonly DerivationStep[]): Derivation {
  const irregularSteps: number[] = [];
  const [first, ...rest] = steps;
  if (!first) return { root: undefined, irregularSteps };
  const firstLeaves = stateLeaves(first.state);
  const rootLeaf = firstLeaves[0] ?? { goal: '', context: [] };
  const root: DerivationNode = node(`${first.step}.0`, rootLeaf, [], first.step);
  // The derivation nodes of the current state's leaves, left to right.
  let live: DerivationNode[] = [root];
  let previous = firstLeaves;

  for (const s of rest) {
    const leaves = stateLeaves(s.state);
    const action: DerivationAction = { step: s.step, command: s.command.trim(), ...(s.line !== undefined ? { line: s.line } : {}) };
    const current = live[0];
    if (!actsOnGoal(s.command)) {
      // LET, PRINT_MODE, queries: goals are untouched; a re-printed state (print mode) refreshes the open ones.
      if (leaves.length === previous.length) refresh(live, leaves);
      previous = leaves;
      continue;
    }
    if (!current) {
      irregularSteps.push(s.step);
      continue;
    }
    if (isEnd(s.command) && leaves.length === previous.length - 1) {
      current.status = 'closed';
      const hammered = previous[0]?.goal !== PROVED_GOAL;
      current.closedBy = { ...action, ...(hammered && s.closedWith ? { with: s.closedWith } : {}) };
      if (hammered && !current.action) current.action = action;
      if (hammered) current.uses = usedNames(current, `${s.command} ${s.closedWith ?? ''}`, []);
      live = live.slice(1);
      refresh(live, leaves);
      previous = leaves;
      continue;
    }
    const produced = leaves.length - previous.length + 1;
    if (produced < 1 || isEnd(s.command)) {
      // Not a change of the current goal alone: record it against the current goal and start over from the state.
      irregularSteps.push(s.step);
      current.action ??= action;
      const fresh = leaves.map((l, i) => node(`${s.step}.${i}`, l, current.context, s.step));
      current.children.push(...fresh);
      live = fresh;
      previous = leaves;
      continue;
    }
    current.action = action;
    const newLeaves = leaves.slice(0, produced);
    current.uses = usedNames(current, s.command, newLeaves[0]?.goal === PROVED_GOAL && produced === 1 ? [] : newLeaves);
    if (produced === 1 && newLeaves[0]?.goal === PROVED_GOAL) {
      current.status = 'proved';
    } else {
      const children = newLeaves.map((l, i) => node(`${s.step}.${i}`, l, current.context, s.step));
      current.children = children;
      live = [...children, ...live.slice(1)];
    }
    refresh(live, leaves);
    previous = leaves;
  }
  settle(root);
  return { root, irregularSteps };
}

/** An inner node is closed when all its children are, proved when none is open. */
export function settle(n: DerivationNode): DerivationStatus {
  if (n.children.length === 0) return n.status;
  const statuses = n.children.map(settle);
  // A goal resting on a given-up goal is not proved (and not open: nothing is left to do there).
  if (!statuses.includes('open') && (n.gaveUp || statuses.includes('given-up'))) n.status = 'given-up';
  else if (statuses.every((x) => x === 'closed')) n.status = 'closed';
  else if (statuses.every((x) => x !== 'open')) n.status = 'proved';
  else n.status = 'open';
  return n.status;
}

function node(key: string, leaf: Leaf, parentContext: readonly ContextEntry[], createdAt: number): DerivationNode {
  const before = new Set(parentContext.map((e) => `${e.kind}\u0000${e.name}\u0000${e.text}`));
  const introduced = leaf.context.filter((e) => !before.has(`${e.kind}\u0000${e.name}\u0000${e.text}`)).map((e) => e.name);
  const status: DerivationStatus = leaf.goal === PROVED_GOAL ? 'proved' : 'open';
  return { key, goal: leaf.goal, context: leaf.context, introduced, createdAt, status, uses: [], children: [] };
}

/** Identifier-like words of a command (Coq names: letters, digits, `_`, `'`). */
const words = (text: string): Set<string> => new Set(text.match(/[A-Za-z_][A-Za-z0-9_']*/g) ?? []);

/**
 * What a step used of the goal's context: the names its text mentions, and the entries that are gone or
 * changed in a goal it produced (a `rewrite … in H`, an `induction l` that consumes `l`, a `clear`).
 */
export function usedNames(n: DerivationNode, text: string, produced: readonly Leaf[]): string[] {
  const named = words(text);
  const out: string[] = [];
  for (const e of n.context) {
    if (out.includes(e.name)) continue;
    const changed = produced.some((l) => !l.context.some((c) => c.kind === e.kind && c.name === e.name && c.text === e.text));
    if (named.has(e.name) || changed) out.push(e.name);
  }
  return out;
}

/** A step may also instantiate existentials in other goals: the live nodes show the goals as they are now. */
function refresh(live: DerivationNode[], leaves: readonly Leaf[]): void {
  live.forEach((n, i) => {
    const l = leaves[i];
    if (l && n.children.length === 0 && n.status === 'open' && l.goal !== PROVED_GOAL) {
      n.goal = l.goal;
      n.context = l.context;
    }
  });
}

/** Every node of a derivation, depth first (for counts, search and tests). */
export function derivationNodes(root: DerivationNode | undefined): DerivationNode[] {
  const out: DerivationNode[] = [];
  const visit = (n: DerivationNode): void => {
    out.push(n);
    n.children.forEach(visit);
  };
  if (root) visit(root);
  return out;
}

/** A request and its response, as a transcript or the editor records them for one channel. */
export interface Exchange {
  command: string;
  /** The response's RESPONSE (a state for proof commands). */
  response: unknown;
  err: string;
  step?: number;
  line?: number;
  closedWith?: string;
}

/**
 * The proofs of one channel's exchanges, each as its linear history: a successful `GOAL` starts a new
 * proof, `REVERT n` drops the steps after n, failed requests change nothing. The last proof is the one in
 * progress (or the last finished one). `hasState` says which responses carry a state (default: the
 * response is a seed-format state); a caller that keeps states elsewhere passes its own and fills them in.
 */
export function proofsFromExchanges(exchanges: readonly Exchange[], hasState: (x: Exchange) => boolean = (x) => looksLikeState(x.response)): DerivationStep[][] {
  const proofs: DerivationStep[][] = [];
  let current: DerivationStep[] | undefined;
  for (const x of exchanges) {
    const command = x.command.replace(/^\s*[0-9]+\s+/, '').trim();
    if (x.err !== '' || x.step === undefined || !hasState(x)) continue;
    if (/^GOAL\b/.test(command)) {
      current = [];
      proofs.push(current);
    }
    if (!current) continue;
    // REVERT n, or a step number at or below the last one (the history was cut there): later steps are gone.
    while (current.length > 0 && (current[current.length - 1] as DerivationStep).step >= x.step + (/^REVERT\b/.test(command) ? 1 : 0)) current.pop();
    if (/^REVERT\b/.test(command)) continue;
    current.push({
      step: x.step, command, state: x.response as Goal,
      ...(x.line !== undefined ? { line: x.line } : {}),
      ...(x.closedWith !== undefined ? { closedWith: x.closedWith } : {}),
    });
  }
  return proofs;
}


/** What a transcript holds, as far as a derivation needs it (the transcript parser's entries fit). */
export type TranscriptItem =
  | { kind: 'request'; channel: number; text: string }
  | { kind: 'response'; response: { CHANNEL: number; RESPONSE: unknown; ERR: string; STEP?: number; HAMMER_REPORT?: unknown } };

/**
 * Pairs requests with their responses, per channel, as they come (a live session) or from a whole
 * transcript. A channel answers in request order (BRIEF §3), except `NEW_CHANNEL`, which may be answered
 * at once: its answer (`{ID}`) is paired with the channel's oldest pending NEW_CHANNEL.
 * `HAMMER_REPORT.closedWith`, when present, says how automation closed a goal.
 */
export class ExchangePairing {
  private readonly pending = new Map<number, string[]>();
  readonly byChannel = new Map<number, Exchange[]>();

  add(item: TranscriptItem): Exchange | undefined {
    if (item.kind === 'request') {
      const queue = this.pending.get(item.channel) ?? [];
      queue.push(item.text.replace(/^\s*[0-9]+\s+/, '').trim());
      this.pending.set(item.channel, queue);
      return undefined;
    }
    const r = item.response;
    const queue = this.pending.get(r.CHANNEL) ?? [];
    const isNewChannel = typeof r.RESPONSE === 'object' && r.RESPONSE !== null && 'ID' in r.RESPONSE;
    const at = isNewChannel ? queue.findIndex((t) => /^NEW_CHANNEL\b/.test(t)) : queue.findIndex((t) => !/^NEW_CHANNEL\b/.test(t));
    const [command] = at >= 0 ? queue.splice(at, 1) : [undefined];
    if (command === undefined || isNewChannel) return undefined;
    const list = this.byChannel.get(r.CHANNEL) ?? [];
    const exchange: Exchange = { command, response: r.RESPONSE, err: r.ERR };
    if (r.STEP !== undefined) exchange.step = r.STEP;
    const closedWith = closedWithOf(r.HAMMER_REPORT);
    if (closedWith !== undefined) exchange.closedWith = closedWith;
    list.push(exchange);
    this.byChannel.set(r.CHANNEL, list);
    return exchange;
  }

  forget(channel: number): void {
    this.pending.delete(channel);
    this.byChannel.delete(channel);
  }
}

/** Every channel's exchanges of a whole transcript. */
export function exchangesByChannel(items: readonly TranscriptItem[]): Map<number, Exchange[]> {
  const pairing = new ExchangePairing();
  for (const item of items) pairing.add(item);
  return pairing.byChannel;
}

/** The tactic a hammer report says closed the goal, if it says one (the report's shape is additive and may grow). */
function closedWithOf(report: unknown): string | undefined {
  if (typeof report !== 'object' || report === null) return undefined;
  const r = report as { closedWith?: unknown; tactic?: unknown };
  if (typeof r.closedWith === 'string') return r.closedWith;
  if (typeof r.tactic === 'string') return r.tactic;
  return undefined;
}
