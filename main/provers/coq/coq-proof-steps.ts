import type { ProofStep } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { splitHyp } from './coq-hyps.ts';
import { isIdent } from './coq-sentence.ts';
import { guard, guardName, isTimeout, toProverError } from './coq-errors.ts';

/** What a step's tactics run on: the session's tip (a failed attempt leaves it as it was) and the first goal's hypothesis lines. */
export interface StepTip {
  readonly timeoutMs: number;
  attempt(sentences: string[], wantedMs: number): Promise<{ ok: true } | { ok: false; error: unknown }>;
  firstHyps(): string[];
}

const secs = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** OBTAIN: an existential assert, destructed in the second goal so the witnesses and conditions are named. */
export const obtainTactic = (step: Extract<ProofStep, { kind: 'obtain' }>): string => {
  const vars = step.vars.map(guardName);
  const conds = step.conds.map((c) => ({ name: guardName(c.name), expr: guard('term', c.expr) }));
  const name = guardName(step.name);
  const body = conds.length === 0 ? 'True' : conds.map((c) => `(${c.expr})`).join(' /\\ ');
  const type = step.type === undefined ? undefined : guard('type', step.type);
  const binder = vars.length === 0 ? '' : type === undefined ? `exists ${vars.join(' ')}, ` : `exists (${vars.join(' ')} : ${type}), `;
  const pattern = [...vars, ...conds.map((c) => c.name)];
  if (pattern.length === 1 && vars.length === 0) return `assert (${pattern[0] ?? name} : ${body})`;
  const destruct = pattern.length === 0 ? `clear ${name}` : `destruct ${name} as ${pattern.length === 1 ? `[${pattern[0] ?? ''} _]` : `(${pattern.join(' & ')})`}`;
  return `assert (${name} : ${binder}${body}); [| ${destruct}]`;
};

/** CRUSH: arbor_crush, else (on timeout) the weak simplifier; `fail` when nothing changes. */
export async function crushTactic(tip: StepTip, rules: string[], limitMs: number): Promise<string> {
  const rewrites = rules.map((r) => `try rewrite ${r} in *`).join('; ');
  const strong = rules.length === 0 ? 'arbor_crush' : `(intros; ${rewrites}; arbor_crush; try solve [eauto using ${rules.join(', ')}])`;
  const first = await tip.attempt([`Timeout ${secs(limitMs)} (progress ${strong}).`], limitMs);
  if (first.ok) return `progress ${strong}.`;
  if (!isTimeout(first.error)) throw new ProverError('fail', 'fail');
  const weak = await tip.attempt([`Timeout ${secs(limitMs)} (progress arbor_weak).`], limitMs);
  if (weak.ok) return 'progress arbor_weak.';
  throw isTimeout(weak.error) ? new ProverError('timeout', 'timeout') : new ProverError('fail', 'fail');
}

/** RULE: resolution (apply, eapply), then elimination on a hypothesis of the current goal. */
export async function ruleTactic(tip: StepTip, r: string): Promise<{ script: string[] }> {
  const hyps = tip.firstHyps().flatMap((h) => splitHyp(h)).map((h) => h.name).filter(isIdent);
  const variants = [`apply ${r}`, `eapply ${r}`, ...hyps.map((h) => `eapply ${r} in ${h}`)];
  let firstError: unknown;
  for (const v of variants) {
    const a = await tip.attempt([`Timeout ${secs(tip.timeoutMs)} (${v}).`], tip.timeoutMs);
    if (a.ok) return { script: [`${v}.`] };
    firstError ??= a.error;
    if (/not found in the current environment/.test(toProverError(a.error).message)) break;
  }
  throw firstError;
}

/** UNFOLD: `unfold` for definitions, `rewrite` for equations, `bad rule` otherwise. */
export async function unfoldTactic(tip: StepTip, r: string): Promise<{ script: string[] }> {
  const t = secs(tip.timeoutMs);
  const u = await tip.attempt([`Timeout ${t} (unfold ${r}).`], tip.timeoutMs);
  if (u.ok) return { script: [`unfold ${r}.`] };
  const um = toProverError(u.error).message;
  if (/not found in the current environment/.test(um)) throw u.error;
  const w = await tip.attempt([`Timeout ${t} (rewrite ${r}).`], tip.timeoutMs);
  if (w.ok) return { script: [`rewrite ${r}.`] };
  const wm = toProverError(w.error).message;
  if (/Cannot find a relation to rewrite|setoid rewrite failed|not a rewriting relation|homogeneous relation/.test(wm))
    throw new ProverError('bad rule', 'bad rule: not an equation');
  throw w.error;
}
