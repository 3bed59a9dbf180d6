import type { ContextEntry, OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { PrintMode, ProofStep } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import type { PantographExpression, PantographGoal } from './pantograph-protocol.ts';
import { leanSexpToSeedOrRaw } from './lean-sexp.ts';

/** What one Arbor step becomes on Pantograph (seed 001), before it runs. */
export type StepPlan =
  /** Tactics tried in order on the current goal; the first that succeeds is the step (CRUSH, RULE, UNFOLD, APPLY). */
  | { kind: 'tactics'; alternatives: string[]; badRule?: boolean }
  /** Pantograph's own `have` (`{"have": expr, "binderName": name}`): the claim first, then the main goal. */
  | { kind: 'have'; name: string; expr: string }
  /** `have name : ∃ …` then `obtain ⟨…⟩ := name` on the main goal; the script writes one `obtain`. */
  | { kind: 'obtain'; name: string; exists: string; pattern: string; facts: string[] }
  /** A portfolio of closing tactics, each under a time limit (HAMMER, END). */
  | { kind: 'hammer'; candidates: string[]; timeoutMs: number };

export interface LeanLibraries {
  /** Mathlib is imported (linarith, nlinarith, positivity, norm_num, aesop). */
  mathlib: boolean;
  /** Aesop is imported (alone or through Mathlib). */
  aesop: boolean;
}

export function librariesOf(imports: readonly string[]): LeanLibraries {
  const mathlib = imports.some((m) => m === 'Mathlib' || m.startsWith('Mathlib.'));
  return { mathlib, aesop: mathlib || imports.some((m) => m === 'Aesop' || m.startsWith('Aesop.')) };
}

/**
 * Terms and tactics go into JSON (always `JSON.stringify`d) and into the rendered Lean script: a line
 * break or control character could end a script line, so it is rejected as a parse error (BRIEF §3).
 */
export function checkText(text: string, what: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/.test(text)) throw new ProverError('parse', `parse error: line break or control character in ${what}`);
  if (text.trim() === '') throw new ProverError('parse', `parse error: empty ${what}`);
  return text;
}

/** A term spliced into a tactic must not close the surrounding bracket: brackets must balance. */
export function checkBalanced(text: string, what: string): string {
  checkText(text, what);
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{', '⟩': '⟨' };
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if ('([{⟨'.includes(c)) stack.push(c);
    else if (c in pairs && stack.pop() !== pairs[c]) throw new ProverError('parse', `parse error: unbalanced '${c}' in ${what}`);
  }
  if (inString || stack.length > 0) throw new ProverError('parse', `parse error: unclosed bracket or string in ${what}`);
  return text;
}

const IDENT = /^[\p{L}_][\p{L}\p{N}_'!?.₀-₉]*$/u;

export function checkIdent(name: string, what: string): string {
  if (!IDENT.test(name)) throw new ProverError('parse', `parse error: ${what} is not a Lean identifier: ${name}`);
  return name;
}

/** The closing tactics HAMMER tries, cheapest deciders first; Mathlib ones only when it is imported. */
export function hammerPortfolio(libs: LeanLibraries): string[] {
  const core = ['assumption', 'rfl', 'decide', 'omega', 'simp_all'];
  const mathlib = libs.mathlib ? ['norm_num', 'linarith', 'positivity', 'nlinarith'] : [];
  const aesop = libs.aesop ? ['aesop'] : [];
  // `exact?` is in core Lean 4 (library search); with Mathlib it searches Mathlib as well.
  return [...core, ...mathlib, ...aesop, 'exact?'];
}

export function planStep(step: ProofStep, libs: LeanLibraries): StepPlan {
  switch (step.kind) {
    case 'have':
      return { kind: 'have', name: checkIdent(step.name, 'the fact name'), expr: checkBalanced(step.expr, 'the term') };
    case 'obtain': {
      step.vars.forEach((v) => checkIdent(v, 'a variable'));
      const conds = step.conds.map((c) => ({ name: checkIdent(c.name, 'a condition name'), expr: checkBalanced(c.expr, 'the condition') }));
      if (step.type !== undefined) checkBalanced(step.type, 'the type');
      const binder = step.type !== undefined ? `(${step.vars.join(' ')} : ${step.type})` : step.vars.join(' ');
      const body = conds.map((c) => `(${c.expr})`).join(' ∧ ');
      return {
        kind: 'obtain',
        name: checkIdent(step.name, 'the fact name'),
        exists: `∃ ${binder}, ${body}`,
        pattern: `⟨${[...step.vars, ...conds.map((c) => c.name)].join(', ')}⟩`,
        facts: conds.map((c) => c.name),
      };
    }
    case 'crush': {
      const rules = step.rules.map((r) => checkBalanced(r, 'a simp rule'));
      return { kind: 'tactics', alternatives: [rules.length > 0 ? `simp_all [${rules.join(', ')}]` : 'simp_all'] };
    }
    case 'hammer':
      return { kind: 'hammer', candidates: hammerPortfolio(libs), timeoutMs: step.timeoutMs };
    case 'rule':
      // Parenthesised, so the rule stays one term: `apply (foo; sorry)` does not parse.
      return { kind: 'tactics', alternatives: [`apply (${checkBalanced(step.rule, 'the rule')})`] };
    case 'unfold': {
      const rule = checkBalanced(step.rule, 'the rule');
      const names = rule.split(/\s+/);
      const alternatives = names.every((n) => IDENT.test(n)) ? [`unfold ${rule}`, `rw [${rule}]`] : [`rw [${rule}]`];
      return { kind: 'tactics', alternatives, badRule: true };
    }
    case 'apply':
      return { kind: 'tactics', alternatives: [checkText(step.tactic, 'the tactic')] };
  }
}

/** Lean hypotheses are locals whose type is a proposition; Pantograph does not say which, so guess by shape. */
const PROPOSITION = /[=≠<>≤≥∧∨¬↔∃∣∈∉⊆⊂]|\bTrue\b|\bFalse\b/;

/**
 * A Pantograph goal as Arbor's flat goal: locals in order, each a variable or a hypothesis (known fact
 * names from HAVE/OBTAIN are hypotheses; otherwise by the shape of the pretty-printed type). Repeated
 * inaccessible names (`h✝`) get a number so names stay unique, as the seed requires. Print mode 2 turns
 * Pantograph's s-expressions into the seed's form (`lean-sexp.ts`), free variables by their shown names.
 */
export function toOpenGoal(goal: PantographGoal, mode: PrintMode, facts: ReadonlySet<string>): OpenGoal {
  const vars = goal.vars;
  const seen = new Map<string, number>();
  vars.forEach((v) => seen.set(v.userName, (seen.get(v.userName) ?? 0) + 1));
  const counter = new Map<string, number>();
  const shown = vars.map((v) => {
    if ((seen.get(v.userName) ?? 0) <= 1) return v.userName;
    const k = (counter.get(v.userName) ?? 0) + 1;
    counter.set(v.userName, k);
    return `${v.userName}${k}`;
  });
  const locals = new Map(vars.map((v, i) => [v.name, shown[i] as string]));
  const text = (e: PantographExpression | undefined): string => {
    if (mode === 2) {
      if (e?.sexp === undefined) throw new ProverError('prover', 'Pantograph printed no s-expression (printExprAST) for print mode 2');
      return leanSexpToSeedOrRaw(e.sexp, locals);
    }
    return e?.pp ?? '';
  };
  const context: ContextEntry[] = vars.map((v, i) => {
    const pretty = v.type?.pp ?? '';
    const kind = facts.has(v.userName) || (pretty !== 'Prop' && PROPOSITION.test(pretty)) ? 'hyp' : 'var';
    return { kind, name: shown[i] as string, text: text(v.type) };
  });
  return { context, goal: text(goal.target) };
}

/** `exact?`/`aesop?` print `Try this: …`: the script gets the found tactic, not the search. */
export function suggestionIn(messages: readonly string[]): string | undefined {
  for (const m of messages) {
    const match = /Try this:\s*(.+)/.exec(m);
    const found = match?.[1]?.trim();
    if (found && !found.includes('\n')) return found;
  }
  return undefined;
}
