import type { FidelityProver, ProverTask, TypeCheck, DirectionScripts } from '../../shared/fidelity/fidelity-prover.ts';
import { beqPlusBundle, bundleTactic, hammerReconstruction, s3LiteBundle, s3LiteClassicalExtra, standaloneBundle, winningEntry } from './coq-tactic-bundles.ts';
import type { BundleEntry } from './coq-tactic-bundles.ts';
import { coqErrorLine, coqErrorMessage, runCoqc } from './run-coqc.ts';

export const coqHeader = 'From Hammer Require Import Tactics Hammer.\nRequire Import Utf8 Arith Lia ZArith List Bool.\nImport ListNotations.';
const plainHeader = 'Require Import Utf8 Arith Lia ZArith List Bool.\nImport ListNotations.';

export interface CoqProverOptions {
  coqc?: string;
  /** Attempts run in parallel (the machine has two cores). */
  parallel?: number;
}

/**
 * The Coq proof tiers over plain `coqc`: every attempt is one generated file in a fresh temp directory,
 * every tactic runs under `timeout`, and the process group is killed past the attempt's wall limit.
 */
export function createCoqFidelityProver(opts: CoqProverOptions = {}): FidelityProver {
  const limit = makeLimiter(opts.parallel ?? 2);
  const run = (src: string, killAfterMs: number) => limit(() => runCoqc(src, { killAfterMs, ...(opts.coqc ? { coqc: opts.coqc } : {}) }));
  const secs = (task: ProverTask): number => Math.max(1, Math.ceil(task.request.timeoutMs / 1000));
  const header = (task: ProverTask): string => `${coqHeader}${task.request.classical ? '\nRequire Import Classical.' : ''}\nSet Hammer ATPLimit ${secs(task)}.\nSet Hammer ReconstrLimit ${secs(task)}.\nSet Hammer GSMode 1.`;
  const section = (task: ProverTask, body: string): string => `Section arbor_ctx.\n${task.context.text}\n${body}\nEnd arbor_ctx.\n`;
  // Generous: every entry may use its timeout, hammer three times it, plus coqc start-up.
  const wall = (task: ProverTask, entries: number): number => (entries + 6) * secs(task) * 1000 + 20_000;

  /** Prove `hyp -> target` (or `target` alone when hyp is null) with a bundle; return the checked script. */
  const attempt = async (task: ProverTask, hyp: string | null, target: string, bundle: BundleEntry[]): Promise<string | null> => {
    const t = secs(task);
    const intro = hyp === null ? '' : 'intro arbor_h. ';
    const goal = hyp === null ? `(${target})` : `(${hyp}) -> (${target})`;
    const src = `${header(task)}\n${section(task, `Lemma arbor_goal : ${goal}.\nProof. ${intro}${bundleTactic(bundle, 'ARBOR-TACTIC', t)}. Qed.`)}`;
    const res = await run(src, wall(task, bundle.length));
    if (!res.ok) return null;
    const entry = winningEntry(res.output, 'ARBOR-TACTIC', bundle);
    if (!entry) return null;
    let tactic = entry.tactic(t);
    if (entry.label === 'hammer') {
      // Report the reconstruction, not `hammer`, and check it alone.
      const rec = hammerReconstruction(res.output);
      if (rec) {
        const recheck = await run(`${header(task)}\n${section(task, `Lemma arbor_goal : ${goal}.\nProof. ${intro}${rec}. Qed.`)}`, wall(task, 1));
        if (recheck.ok) tactic = rec;
      }
    }
    return `${intro}${tactic}.`;
  };

  return {
    backend: 'coq',
    header: coqHeader,

    async typeCheck(task): Promise<TypeCheck> {
      const { canonical, candidate } = task.request;
      const prefix = `${plainHeader}${task.request.classical ? '\nRequire Import Classical.' : ''}\nSection arbor_ctx.\n`;
      const ctxLines = `${task.context.text}\n`;
      const body = `Definition arbor_canonical : Prop := (${canonical}).\nDefinition arbor_candidate : Prop := (${candidate}).\nEnd arbor_ctx.\n`;
      const src = prefix + ctxLines + body;
      const res = await run(src, 60_000);
      if (res.ok) return { ok: true };
      if (res.timedOut) return { ok: false, statement: 'input', message: 'timeout' };
      const line = coqErrorLine(res.output);
      const ctxStart = prefix.split('\n').length;
      const canonicalLine = (prefix + ctxLines).split('\n').length;
      const statement = line === null || line < ctxStart ? 'input' : line < canonicalLine ? 'context' : line === canonicalLine ? 'canonical' : 'candidate';
      return { ok: false, statement, message: coqErrorMessage(res.output) };
    },

    async s3Lite(task): Promise<DirectionScripts> {
      const t = secs(task);
      const bundle = task.request.classical ? [...s3LiteBundle, ...s3LiteClassicalExtra] : s3LiteBundle;
      const { canonical, candidate } = task.request;
      const src = `${header(task)}\n${section(task, `Lemma arbor_iff : (${canonical}) <-> (${candidate}).\nProof.\nsplit; intro arbor_h; [ ${bundleTactic(bundle, 'ARBOR-FWD', t)}\n| ${bundleTactic(bundle, 'ARBOR-BWD', t)} ].\nQed.`)}`;
      const res = await run(src, wall(task, bundle.length * 2));
      if (!res.ok) return { forward: null, backward: null, detail: res.timedOut ? 'timeout' : 'logic-only tactics failed' };
      const f = winningEntry(res.output, 'ARBOR-FWD', bundle);
      const b = winningEntry(res.output, 'ARBOR-BWD', bundle);
      if (!f || !b) return { forward: null, backward: null, detail: 'no tactic marker' };
      return { forward: `intro arbor_h. ${f.tactic(t)}.`, backward: `intro arbor_h. ${b.tactic(t)}.` };
    },

    async beqPlus(task): Promise<DirectionScripts> {
      const { canonical, candidate } = task.request;
      const [forward, backward] = await Promise.all([
        attempt(task, canonical, candidate, beqPlusBundle),
        attempt(task, candidate, canonical, beqPlusBundle),
      ]);
      return { forward, backward };
    },

    async standalone(task, which, claim): Promise<string | null> {
      const s = which === 'canonical' ? task.request.canonical : task.request.candidate;
      return attempt(task, null, claim === 'provable' ? s : `~ (${s})`, standaloneBundle);
    },

    async checkFile(source) {
      const res = await run(source, 120_000);
      return { ok: res.ok, message: res.ok ? '' : coqErrorMessage(res.output) };
    },
  };
}

/** At most n tasks at once. */
function makeLimiter(n: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
