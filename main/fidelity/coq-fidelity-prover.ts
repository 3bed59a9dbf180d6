import type { DirectionScripts, FidelityProver, ProverTask, StandaloneStatus, TypeCheck } from '../../shared/fidelity/fidelity-prover.ts';
import { beqPlusBundle, bundleTactic, hammerReconstruction, s3LiteBundle, s3LiteClassicalExtra, standaloneBundle, winningEntry } from './coq-tactic-bundles.ts';
import type { BundleEntry } from './coq-tactic-bundles.ts';
import { coqErrorLine, coqErrorMessage, runCoqc } from './run-coqc.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';

/** Imports of every attempt. ZArith only when something mentions Z: it doubles hammer's premise-selection time. */
export function coqImports(needsZ: boolean, hammer: boolean): string {
  return `${hammer ? 'From Hammer Require Import Tactics Hammer.\n' : ''}Require Import Utf8 Arith Lia ${needsZ ? 'ZArith ' : ''}List Bool.\nImport ListNotations.`;
}
/** The full header (hammer and ZArith): what the ground-truth files use. */
export const coqHeader = coqImports(true, true);

/** Whether any of these texts speaks of integers (then ZArith is imported). */
export const mentionsZ = (texts: string[]): boolean => texts.some((s) => /(^|[^\w.])Z(\.|\b)|%Z|Z_scope/u.test(s));
const taskMentionsZ = (task: ProverTask): boolean => mentionsZ([task.request.canonical, task.request.candidate, task.context.text]);

export interface CoqProverOptions {
  coqc?: string;
  /** The workspace's trusted project: every coqc run gets its load paths (run-coqc.ts). */
  project?: ProjectArgs;
  /** Attempts run in parallel (the machine has two cores). */
  parallel?: number;
}

/**
 * The Coq proof tiers over plain `coqc`: every attempt is one generated file in a fresh temp directory,
 * every tactic runs under `timeout`, and the process group is killed past the attempt's wall limit.
 */
export function createCoqFidelityProver(opts: CoqProverOptions = {}): FidelityProver {
  const limit = makeLimiter(opts.parallel ?? 2);
  const run = (src: string, killAfterMs: number) => limit(() => runCoqc(src, { killAfterMs, ...(opts.coqc ? { coqc: opts.coqc } : {}), ...(opts.project ? { project: opts.project } : {}) }));
  const secs = (task: ProverTask): number => Math.max(1, Math.ceil(task.request.timeoutMs / 1000));
  const hsecs = (task: ProverTask): number => Math.max(1, Math.ceil(task.request.hammerTimeoutMs / 1000));
  const header = (task: ProverTask): string =>
    `${coqImports(taskMentionsZ(task), true)}${task.request.classical ? '\nRequire Import Classical.' : ''}\nSet Hammer ATPLimit ${secs(task)}.\nSet Hammer ReconstrLimit ${secs(task)}.\nSet Hammer GSMode 1.`;
  const section = (task: ProverTask, body: string): string => `Section arbor_ctx.\n${task.context.text}\n${body}\nEnd arbor_ctx.\n`;
  // Generous: every entry may use its timeout, each hammer call its own budget, plus coqc start-up.
  const wall = (task: ProverTask, entries: number, hammers: number): number => (entries * secs(task) + hammers * hsecs(task)) * 1000 + 20_000;

  /** Re-check one script alone (with Qed); for hammer, its reconstruction. */
  const recheck = async (task: ProverTask, goal: string, script: string): Promise<boolean> =>
    (await run(`${header(task)}\n${section(task, `Lemma arbor_goal : ${goal}.\nProof. ${script} Qed.`)}`, wall(task, 1, 1))).ok;

  /** Prove `hyp -> target` with a bundle in one file; return the checked script. */
  const attempt = async (task: ProverTask, hyp: string, target: string, bundle: BundleEntry[]): Promise<string | null> => {
    const [t, h] = [secs(task), hsecs(task)];
    const goal = `(${hyp}) -> (${target})`;
    const src = `${header(task)}\n${section(task, `Lemma arbor_goal : ${goal}.\nProof. intro arbor_h. ${bundleTactic(bundle, 'ARBOR-TACTIC', t, h)}. Qed.`)}`;
    const res = await run(src, wall(task, bundle.length, 1));
    if (!res.ok) return null;
    const entry = winningEntry(res.output, 'ARBOR-TACTIC', bundle);
    if (!entry) return null;
    if (entry.label === 'hammer') {
      // Report the reconstruction, not `hammer`, once it is checked alone.
      const rec = hammerReconstruction(res.output);
      if (rec && (await recheck(task, goal, `intro arbor_h. ${rec}.`))) return `intro arbor_h. ${rec}.`;
    }
    return `intro arbor_h. ${entry.tactic(t, h)}.`;
  };

  return {
    backend: 'coq',
    header: (task) => header(task),

    async typeCheck(task): Promise<TypeCheck> {
      const { canonical, candidate } = task.request;
      const prefix = `${coqImports(taskMentionsZ(task), false)}${task.request.classical ? '\nRequire Import Classical.' : ''}\nSection arbor_ctx.\n`;
      const ctxLines = `${task.context.text}\n`;
      const body = `Definition arbor_canonical : Prop := (${canonical}).\nDefinition arbor_candidate : Prop := (${candidate}).\nEnd arbor_ctx.\n`;
      const res = await run(prefix + ctxLines + body, 60_000);
      if (res.ok) return { ok: true };
      if (res.timedOut) return { ok: false, statement: 'input', message: 'timeout' };
      const line = coqErrorLine(res.output);
      const ctxStart = prefix.split('\n').length;
      const canonicalLine = (prefix + ctxLines).split('\n').length;
      const statement = line === null || line < ctxStart ? 'input' : line < canonicalLine ? 'context' : line === canonicalLine ? 'canonical' : 'candidate';
      return { ok: false, statement, message: coqErrorMessage(res.output) };
    },

    async s3Lite(task): Promise<DirectionScripts> {
      const [t, h] = [secs(task), hsecs(task)];
      const bundle = task.request.classical ? [...s3LiteBundle, ...s3LiteClassicalExtra] : s3LiteBundle;
      const { canonical, candidate } = task.request;
      const src = `${header(task)}\n${section(task, `Lemma arbor_iff : (${canonical}) <-> (${candidate}).\nProof.\nsplit; intro arbor_h; [ ${bundleTactic(bundle, 'ARBOR-FWD', t, h)}\n| ${bundleTactic(bundle, 'ARBOR-BWD', t, h)} ].\nQed.`)}`;
      const res = await run(src, wall(task, bundle.length * 2, 0));
      if (!res.ok) return { forward: null, backward: null, detail: res.timedOut ? 'timeout' : 'logic-only tactics failed' };
      const f = winningEntry(res.output, 'ARBOR-FWD', bundle);
      const b = winningEntry(res.output, 'ARBOR-BWD', bundle);
      if (!f || !b) return { forward: null, backward: null, detail: 'no tactic marker' };
      return { forward: `intro arbor_h. ${f.tactic(t, h)}.`, backward: `intro arbor_h. ${b.tactic(t, h)}.` };
    },

    async beqPlus(task): Promise<DirectionScripts> {
      const { canonical, candidate } = task.request;
      const [forward, backward] = await Promise.all([
        attempt(task, canonical, candidate, beqPlusBundle),
        attempt(task, candidate, canonical, beqPlusBundle),
      ]);
      return { forward, backward };
    },

    /**
     * One file per statement: try `S`, and only if that fails `~ S`, inside one `first` so hammer's premise
     * selection is paid once per file; the positive found is then re-checked alone.
     */
    async standalone(task, which): Promise<StandaloneStatus> {
      const [t, h] = [secs(task), hsecs(task)];
      const s = which === 'canonical' ? task.request.canonical : task.request.candidate;
      const goals = [`(${s})`, `~ (${s})`];
      const branches = goals.map((g, k) => `(assert (arbor_p${k} : ${g}) by (${bundleTactic(standaloneBundle, `ARBOR-G${k}`, t, h)}); idtac "ARBOR-RESULT ${k}")`);
      const body = `Goal True.\nProof. first [ ${branches.join('\n  | ')}\n  | idtac "ARBOR-RESULT none" ].\nAbort.`;
      const res = await run(`${header(task)}\n${section(task, body)}`, wall(task, standaloneBundle.length * 2, 2));
      const result = /ARBOR-RESULT (\d)/u.exec(res.output);
      const out: StandaloneStatus = { provable: null, refutable: null };
      if (!result) return out;
      const k = Number(result[1]);
      const from = k === 1 ? res.output.lastIndexOf('ARBOR-G1 0') : 0;
      const part = res.output.slice(Math.max(0, from), result.index);
      const entry = winningEntry(part, `ARBOR-G${k}`, standaloneBundle);
      if (!entry) return out;
      const rec = entry.label === 'hammer' ? hammerReconstruction(part) : null;
      const script = `${rec ?? entry.tactic(t, h)}.`;
      const checked = (await recheck(task, goals[k] as string, script)) ? script : `(unchecked) ${script}`;
      return k === 0 ? { provable: checked, refutable: null } : { provable: null, refutable: checked };
    },

    async checkFile(source) {
      const res = await run(source, 300_000);
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
