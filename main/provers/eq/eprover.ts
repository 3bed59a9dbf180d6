/**
 * E prover as an external hammer. The problem goes to `eprover --proof-object` as TPTP CNF; the
 * refutation it prints is replayed clause by clause: every derived unit equation is re-proved
 * from its parents by a small completion run (a critical pair or a few rewrites each), and the
 * negated goal's rewrites become the goal chain. The result is an ordinary rewrite-chain proof,
 * which the caller checks before it counts.
 */
import { startProcess } from '../../process/process-manager.ts';
import { proveByCompletion } from './completion.ts';
import type { ChainStep, EqProof, Lemma } from './proof.ts';
import { reverseChain } from './proof.ts';
import { importProof } from './proof-import.ts';
import { match } from './substitution.ts';
import { type Term, type TermBank, varsInOrder } from './term.ts';
import { parseTptpTerm, problemToTptp, tptpName } from './tptp.ts';

export interface EAxiom {
  name: string;
  lhs: Term;
  rhs: Term;
}

export interface ERunResult {
  status: 'proved' | 'unknown' | 'timeout' | 'error';
  output: string;
  ms: number;
}

export const EPROVER = process.env.ARBOR_EPROVER ?? '/usr/bin/eprover';

/**
 * Runs E on a TPTP problem with a CPU limit; the wall-clock guard (by default the limit + 1.5 s)
 * kills it if it overruns, and so does `signal` (the portfolio stops E once it has a proof).
 */
export function runEprover(tptp: string, limitSeconds: number, extraArgs: string[] = ['--auto'], guard: { wallMs?: number; signal?: AbortSignal } = {}): Promise<ERunResult> {
  const start = Date.now();
  return new Promise((resolve) => {
    if (guard.signal?.aborted) {
      resolve({ status: 'unknown', output: '', ms: 0 });
      return;
    }
    // Sandboxed (the default): the problem on stdin, the proof on stdout, nothing else.
    const proc = startProcess({ program: EPROVER, args: [...extraArgs, '--proof-object', '-s', `--cpu-limit=${Math.max(1, Math.ceil(limitSeconds))}`], sandbox: {} });
    const child = proc.child;
    let out = '';
    let done = false;
    const onAbort = (): void => {
      proc.kill();
      finish('unknown');
    };
    guard.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (status: ERunResult['status']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      guard.signal?.removeEventListener('abort', onAbort);
      resolve({ status, output: out, ms: Date.now() - start });
    };
    const timer = setTimeout(() => {
      proc.kill();
      finish('timeout');
    }, guard.wallMs ?? limitSeconds * 1000 + 1500);
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.stderr.on('data', () => undefined);
    child.on('error', () => finish('error'));
    child.on('close', () => finish(/SZS status (Unsatisfiable|Theorem)/.test(out) ? 'proved' : /CPU time limit/.test(out) ? 'timeout' : 'unknown'));
    proc.stdin.on('error', () => undefined);
    proc.stdin.end(tptp);
  });
}

interface EClause {
  name: string;
  role: string;
  kind: 'eq' | 'neq' | 'false';
  lhs?: string;
  rhs?: string;
  source: string;
}

/** Splits E's `cnf(name, role, (clause), source).` lines. */
export function parseEClauses(output: string): EClause[] {
  const clauses: EClause[] = [];
  for (const line of output.split('\n')) {
    const m = /^cnf\(([^,]+),\s*([a-z_]+),\s*/.exec(line);
    if (!m) continue;
    let i = m[0].length;
    // the clause: balanced parentheses
    let depth = 0;
    const startClause = i;
    for (; i < line.length; i++) {
      if (line[i] === '(') depth++;
      else if (line[i] === ')') {
        depth--;
        if (depth === 0) break;
      }
    }
    const clause = line.slice(startClause + 1, i);
    const source = line.slice(i + 1, line.lastIndexOf(')')).replace(/^\s*,\s*/, '').trim();
    let kind: EClause['kind'];
    let lhs: string | undefined;
    let rhs: string | undefined;
    if (clause.trim() === '$false') kind = 'false';
    else {
      const sides = splitEquality(clause);
      if (!sides) continue;
      [kind, lhs, rhs] = sides;
    }
    clauses.push({ name: m[1] as string, role: m[2] as string, kind, lhs, rhs, source });
  }
  return clauses;
}

function splitEquality(text: string): ['eq' | 'neq', string, string] | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === '!' && text[i + 1] === '=') return ['neq', text.slice(0, i).trim(), text.slice(i + 2).trim()];
    else if (depth === 0 && c === '=') return ['eq', text.slice(0, i).trim(), text.slice(i + 1).trim()];
  }
  return undefined;
}

interface Known {
  name: string;
  lhs: Term;
  rhs: Term;
}

/**
 * Turns E's refutation into a rewrite-chain proof of `goal` over `axioms` (in `bank`). Throws with a
 * reason when a step cannot be replayed.
 */
export async function reconstructEProof(bank: TermBank, axioms: readonly EAxiom[], goal: { lhs: Term; rhs: Term }, output: string, deadline: number): Promise<EqProof> {
  const clauses = parseEClauses(output);
  const byTptp = new Map(axioms.map((a) => [tptpName(a.name), a]));
  const known = new Map<string, Known>();
  const lemmas: Lemma[] = [];
  // The negated goal's current sides and their chains from the original sides.
  let gs = goal.lhs;
  let gt = goal.rhs;
  let chainS: ChainStep[] = [];
  let chainT: ChainStep[] = [];
  const parentsOf = (source: string): string[] => {
    const out: string[] = [];
    for (const m of source.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) if (known.has(m[0]) || m[0] === 'goal' || /^c_0_\d+$/.test(m[0])) out.push(m[0]);
    return out;
  };
  const proveEq = async (label: string, premises: Known[], lhs: Term, rhs: Term, budgetMs = 3000): Promise<EqProof> => {
    if (lhs === rhs) return { lemmas: [], lhs, rhs, steps: [] };
    const r = await proveByCompletion(bank, premises, { lhs, rhs }, { deadline: Math.min(deadline, Date.now() + budgetMs), sliceMs: 1000 });
    if (!r.proof) throw new Error(`could not replay E step ${label}`);
    return importProof(r.proof, r.bank, bank, { lemmaPrefix: `${label}_` });
  };
  const positives = (names: string[]): Known[] => names.map((n) => known.get(n)).filter((k): k is Known => k !== undefined);
  for (const c of clauses) {
    if (Date.now() > deadline) throw new Error('out of time replaying the E proof');
    const vars = new Map<string, number>();
    if (c.kind === 'eq') {
      const lhs = parseTptpTerm(bank, c.lhs as string, vars);
      const rhs = parseTptpTerm(bank, c.rhs as string, vars);
      const fileRef = /^file\([^,]*,\s*([A-Za-z0-9_]+)\)$/.exec(c.source);
      const input = byTptp.get(fileRef ? (fileRef[1] as string) : c.source);
      if (input) {
        // An input axiom, possibly printed flipped: use the ARTICLE equation itself.
        if ((match(input.lhs, lhs) && match(input.rhs, rhs)) || (match(input.lhs, rhs) && match(input.rhs, lhs))) {
          known.set(c.name, { name: input.name, lhs: input.lhs, rhs: input.rhs });
          continue;
        }
      }
      const parents = positives(parentsOf(c.source));
      // Fix the clause's variables as fresh constants, prove, then turn them back into variables.
      const order = varsInOrder([lhs, rhs]);
      const toVars = new Map<string, number>();
      const sub: Term[] = [];
      order.forEach((v) => {
        const cname = `${c.name}_v${v}`;
        toVars.set(cname, v);
        sub[v] = bank.const(cname);
      });
      const fix = (t: Term): Term => (t.f < 0 ? (sub[-t.f - 1] as Term) : t.args.length ? bank.app(t.f, t.args.map(fix)) : t);
      const p = await proveEq(c.name, parents, fix(lhs), fix(rhs));
      const back = importProof(p, bank, bank, { constantsToVars: toVars });
      lemmas.push(...back.lemmas);
      lemmas.push({ name: c.name, lhs, rhs, steps: back.steps });
      known.set(c.name, { name: c.name, lhs, rhs });
    } else if (c.kind === 'neq') {
      const lhs = parseTptpTerm(bank, c.lhs as string, vars);
      const rhs = parseTptpTerm(bank, c.rhs as string, vars);
      const parents = positives(parentsOf(c.source));
      // The child's sides come from the current negated goal's sides, in either order.
      const trySides = async (a: Term, b: Term, ms: number): Promise<[EqProof, EqProof]> => [await proveEq(`${c.name}_l`, parents, gs, a, ms), await proveEq(`${c.name}_r`, parents, gt, b, ms)];
      let pair: [EqProof, EqProof] | undefined;
      for (const [a, b, ms] of [[lhs, rhs, 300], [rhs, lhs, 300], [lhs, rhs, 3000], [rhs, lhs, 3000]] as const) {
        try {
          pair = await trySides(a, b, ms);
          break;
        } catch {
          // try the other orientation, then a longer budget
        }
      }
      if (!pair) throw new Error(`could not replay E step ${c.name}`);
      const [ps, pt] = pair;
      lemmas.push(...ps.lemmas, ...pt.lemmas);
      chainS = [...chainS, ...ps.steps];
      chainT = [...chainT, ...pt.steps];
      gs = lastOf(ps);
      gt = lastOf(pt);
    } else {
      const parents = positives(parentsOf(c.source));
      const p = await proveEq(c.name, parents, gs, gt);
      lemmas.push(...p.lemmas);
      const steps = [...chainS, ...p.steps, ...reverseChain(goal.rhs, chainT)];
      return { lemmas, lhs: goal.lhs, rhs: goal.rhs, steps };
    }
  }
  throw new Error('E output has no refutation');
}

const lastOf = (p: EqProof): Term => (p.steps.length ? (p.steps[p.steps.length - 1] as ChainStep).term : p.lhs);

export async function proveWithEprover(bank: TermBank, axioms: readonly EAxiom[], goal: { lhs: Term; rhs: Term }, limitSeconds: number, replayDeadline: number, guard: { wallMs?: number; signal?: AbortSignal } = {}): Promise<{ proof?: EqProof; status: ERunResult['status']; ms: number; error?: string }> {
  const r = await runEprover(problemToTptp(bank, axioms, goal), limitSeconds, ['--auto'], guard);
  if (r.status !== 'proved') return { status: r.status, ms: r.ms };
  try {
    const proof = await reconstructEProof(bank, axioms, goal, r.output, replayDeadline);
    return { proof, status: r.status, ms: r.ms };
  } catch (err) {
    return { status: r.status, ms: r.ms, error: (err as Error).message };
  }
}
