/**
 * PANTOGRAPH TEST DOUBLE — a tiny real process for tests, never used by the product. It speaks
 * Pantograph's REPL wire protocol with the JSON shapes of Pantograph's `Protocol.lean`, `Repl.lean`,
 * `Main.lean` and `Test/Integration.lean` (v0.3.x, Lean v4.21; `PANTOGRAPH_DOUBLE_DIALECT=0.2` gives the
 * older shapes: `tacticErrors`, `isConversion`, no `timeout` option, no goals in `goal.print`):
 *   - prints `ready.` once the "imports" (its argv) are loaded; `--version` prints the version;
 *   - one request per line, `cmd {json}` or `{"cmd":…, "payload":…}`; one compact JSON line per answer;
 *   - errors are `{"error": kind, "desc": text}`; an empty line ends the REPL.
 * Its "Lean" is a toy: a handful of tactics over goal strings, enough to drive every path of the client
 * (success with goals, no goals, failure messages, parse errors, interrupts by the timeout option).
 * Extra, double-only trigger: the tactic `crash!` kills the process.
 */
import { createInterface } from 'node:readline';

const dialect = process.env.PANTOGRAPH_DOUBLE_DIALECT === '0.2' ? '0.2' : '0.3';
const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(dialect === '0.2' ? '0.2.19\n' : '0.3.7/v4.21.0\n');
  process.exit(0);
}
const imports = args.filter((a) => !a.startsWith('--'));
const mathlib = imports.some((m) => m === 'Mathlib' || m.startsWith('Mathlib.'));

interface Var { name: string; userName: string; type: string; isInaccessible: boolean }
interface G { name: string; userName?: string; target: string; vars: Var[] }
const states = new Map<number, G[]>();
let nextState = 0;
let uniq = 100;
const options = { printJsonPretty: false, printExprPretty: true, printExprAST: false, printDependentMVars: false, noRepeat: false, printAuxDecls: false, printImplementationDetailHyps: false, automaticMode: true, timeout: 0 };

const fresh = (): string => `_uniq.${uniq++}`;
const out = (v: unknown): void => { process.stdout.write(`${JSON.stringify(v)}\n`); };
const err = (error: string, desc: string): unknown => ({ error, desc });
const goalJson = (g: G): unknown => {
  const vars = g.vars.map((v) => ({ name: v.name, userName: v.userName, isInaccessible: v.isInaccessible, type: { pp: v.type } }));
  const base: Record<string, unknown> = { name: g.name };
  if (g.userName !== undefined) base.userName = g.userName;
  if (dialect === '0.2') base.isConversion = false; else base.fragment = 'tactic';
  return { ...base, target: { pp: g.target }, vars };
};
const message = (data: string, severity = 'error'): unknown => ({ fileName: '<anonymous>', pos: { line: 0, column: 0 }, severity, data });

function balanced(text: string): boolean {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{', '⟩': '⟨' };
  const stack: string[] = [];
  for (const c of text) {
    if ('([{⟨'.includes(c)) stack.push(c);
    else if (c in pairs) { if (stack.pop() !== pairs[c]) return false; }
  }
  return stack.length === 0;
}
/** Splits at the first top-level occurrence of `sep` (outside brackets). */
function splitTop(text: string, sep: string): [string, string] | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if ('([{⟨'.includes(c)) depth++;
    else if (')]}⟩'.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(sep, i)) return [text.slice(0, i).trim(), text.slice(i + sep.length).trim()];
  }
  return undefined;
}
const unparen = (t: string): string => { const s = t.trim(); return s.startsWith('(') && s.endsWith(')') && balanced(s.slice(1, -1)) ? s.slice(1, -1).trim() : s; };
function arithTrue(target: string): boolean {
  const t = unparen(target);
  if (t === 'True') return true;
  const m = /^(.+?)\s*(=|≤|<|≥|>|≠)\s*(.+)$/.exec(t);
  if (!m) return false;
  const [, l, op, r] = m as unknown as [string, string, string, string];
  if (op === '=' && l.trim() === r.trim()) return true;
  const num = /^[0-9+\-*() ]+$/;
  if (!num.test(l) || !num.test(r)) return false;
  const a = Number(Function(`return (${l})`)()); const b = Number(Function(`return (${r})`)());
  return op === '=' ? a === b : op === '≤' ? a <= b : op === '<' ? a < b : op === '≥' ? a >= b : op === '>' ? a > b : a !== b;
}

type Outcome = { goals: G[]; messages?: unknown[]; sorry?: boolean } | { fail: string } | { parseError: string } | { error: unknown } | { delay: number; then: () => Outcome };

function runTactic(g: G, tactic: string): Outcome {
  const t = tactic.trim();
  if (!balanced(t)) return { parseError: '<input>:1:0: unexpected end of input; expected \')\'' };
  if (t === 'crash!') process.exit(1);
  const assumption = g.vars.find((v) => v.type === unparen(g.target) || v.type === g.target);
  let m: RegExpExecArray | null;
  if ((m = /^intro((?:\s+[\w']+)*)$/.exec(t))) {
    const names = (m[1] ?? '').trim().split(/\s+/).filter(Boolean);
    let cur: G = { ...g, name: fresh(), vars: [...g.vars] };
    for (const name of names.length > 0 ? names : ['a✝']) {
      const all = /^∀\s*\(([^():]+):\s*([^()]+)\),\s*(.*)$/.exec(cur.target);
      const arrow = splitTop(cur.target, '→');
      if (all) {
        const binders = (all[1] ?? '').trim().split(/\s+/);
        const type = (all[2] ?? '').trim();
        const rest = binders.slice(1);
        let body = all[3] ?? '';
        const bound = binders[0] as string;
        body = body.replace(new RegExp(`\\b${bound}\\b`, 'g'), name);
        cur = { ...cur, vars: [...cur.vars, { name: fresh(), userName: name, type, isInaccessible: name.includes('✝') }], target: rest.length > 0 ? `∀ (${rest.join(' ')} : ${type}), ${body}` : body };
      } else if (arrow) {
        cur = { ...cur, vars: [...cur.vars, { name: fresh(), userName: name, type: arrow[0], isInaccessible: name.includes('✝') }], target: arrow[1] };
      } else return { fail: 'no additional binders or let bindings in the goal to introduce' };
    }
    return { goals: [cur] };
  }
  if (t === 'constructor' || t === 'apply (And.intro)' || t === 'apply And.intro') {
    const parts = splitTop(g.target, '∧');
    if (!parts) return { fail: `tactic 'constructor' failed, target is not an inductive datatype\n⊢ ${g.target}` };
    return { goals: [{ name: fresh(), userName: 'left', target: parts[0], vars: g.vars }, { name: fresh(), userName: 'right', target: parts[1], vars: g.vars }] };
  }
  if ((m = /^exact\s+([\w']+)$/.exec(t))) {
    const v = g.vars.find((x) => x.userName === m?.[1]);
    return v && (v.type === g.target || v.type === unparen(g.target)) ? { goals: [] } : { fail: `type mismatch\n  ${m[1]}` };
  }
  if (t === 'assumption') return assumption ? { goals: [] } : { fail: `tactic 'assumption' failed\n⊢ ${g.target}` };
  if (['rfl', 'decide', 'omega', 'norm_num', 'trivial'].includes(t)) {
    if (t === 'norm_num' && !mathlib) return { parseError: '<input>:1:0: unknown tactic' };
    return arithTrue(g.target) ? { goals: [] } : { fail: `${t} failed to prove the goal\n⊢ ${g.target}` };
  }
  if ((m = /^simp_all(?:\s*\[(.*)\])?$/.exec(t))) {
    if (arithTrue(g.target) || assumption) return { goals: [] };
    const parts = splitTop(g.target, '∧');
    if (parts && (arithTrue(parts[0]) || arithTrue(parts[1]))) return { goals: [{ ...g, name: fresh(), target: arithTrue(parts[0]) ? parts[1] : parts[0] }] };
    return { fail: 'simp_all made no progress' };
  }
  if (['linarith', 'nlinarith', 'aesop', 'positivity'].includes(t)) {
    if (!mathlib) return { parseError: '<input>:1:0: unknown tactic' };
    return arithTrue(g.target) || assumption ? { goals: [] } : { fail: `${t} failed` };
  }
  if (t === 'exact?') {
    if (assumption) return { goals: [], messages: [message(`Try this: exact ${assumption.userName}`, 'information')] };
    return { fail: '`exact?` could not close the goal. Try `apply?` to see partial suggestions.' };
  }
  if ((m = /^sleep\s+(\d+)$/.exec(t))) {
    const ms = Number(m[1]);
    if (options.timeout > 0 && options.timeout < ms) return { delay: options.timeout, then: () => ({ error: err('internal', 'interrupt') }) };
    return { delay: ms, then: () => ({ goals: [{ ...g, name: fresh() }] }) };
  }
  if ((m = /^obtain\s+⟨([^⟩]*)⟩\s*:=\s*([\w']+)$/.exec(t))) {
    const names = (m[1] ?? '').split(',').map((s) => s.trim());
    const v = g.vars.find((x) => x.userName === m?.[2]);
    if (!v) return { fail: `unknown identifier '${m[2]}'` };
    const ex = /^∃\s*(?:\(([^():]+):\s*([^()]+)\)|([\w' ]+)),\s*(.*)$/.exec(v.type);
    if (!ex) return { fail: 'rcases: pattern does not match an existential' };
    const bound = (ex[1] ?? ex[3] ?? '').trim().split(/\s+/);
    const type = (ex[2] ?? 'ℕ').trim();
    let body = ex[4] ?? '';
    const conds: string[] = [];
    let rest: [string, string] | undefined;
    while ((rest = splitTop(body, '∧'))) { conds.push(unparen(rest[0])); body = rest[1]; }
    conds.push(unparen(body));
    const witnesses = names.slice(0, bound.length);
    const hypNames = names.slice(bound.length);
    const rename = (s: string): string => bound.reduce((acc, b, i) => acc.replace(new RegExp(`\\b${b}\\b`, 'g'), witnesses[i] ?? b), s);
    const vars = g.vars.filter((x) => x !== v);
    witnesses.forEach((w) => vars.push({ name: fresh(), userName: w, type, isInaccessible: false }));
    conds.forEach((c, i) => vars.push({ name: fresh(), userName: hypNames[i] ?? 'h✝', type: rename(c), isInaccessible: hypNames[i] === undefined }));
    return { goals: [{ ...g, name: fresh(), vars }] };
  }
  if ((m = /^unfold\s+([\w'.]+)$/.exec(t))) {
    const name = m[1] as string;
    if (!g.target.includes(name)) return { fail: `unfold failed to unfold '${name}' at\n  ${g.target}` };
    return { goals: [{ ...g, name: fresh(), target: g.target.split(name).join(`${name}.unfolded`) }] };
  }
  if ((m = /^rw\s*\[(.*)\]$/.exec(t))) {
    const v = g.vars.find((x) => x.userName === m?.[1]?.trim());
    const eq = v ? splitTop(v.type, '=') : undefined;
    if (!eq) return { fail: `equality or iff proof expected\n  ${m[1]}` };
    if (!g.target.includes(eq[0])) return { fail: "tactic 'rewrite' failed, did not find instance of the pattern in the target expression" };
    const target = g.target.split(eq[0]).join(eq[1]);
    return arithTrue(target) ? { goals: [] } : { goals: [{ ...g, name: fresh(), target }] };
  }
  if ((m = /^apply\s+\((.*)\)$/.exec(t)) || (m = /^apply\s+([\w'.]+)$/.exec(t))) {
    const v = g.vars.find((x) => x.userName === m?.[1]?.trim());
    const arrow = v ? splitTop(v.type, '→') : undefined;
    if (v && (v.type === g.target)) return { goals: [] };
    if (arrow && arrow[1] === g.target) return { goals: [{ ...g, name: fresh(), target: arrow[0] }] };
    return { fail: `tactic 'apply' failed, could not unify the conclusion of \`${m[1]}\`` };
  }
  if (t === 'sorry') return { goals: [], sorry: true };
  return { parseError: '<input>:1:0: unknown tactic' };
}

function answer(cmd: string, payload: Record<string, unknown>): unknown | Promise<unknown> {
  switch (cmd) {
    case 'reset': { const n = states.size; states.clear(); nextState = 0; return { nGoals: n }; }
    case 'stat': return { nGoals: states.size };
    case 'options.print': return dialect === '0.2' ? { ...options, timeout: undefined, automaticMode: undefined } : options;
    case 'options.set': {
      for (const [k, v] of Object.entries(payload)) if (k in options && !(dialect === '0.2' && (k === 'timeout' || k === 'automaticMode'))) (options as Record<string, unknown>)[k] = v;
      return {};
    }
    case 'goal.start': {
      const expr = payload.expr;
      if (typeof expr !== 'string') return err('arguments', 'Exactly one of {expr, copyFrom} must be supplied');
      if (!balanced(expr) || expr.includes('@@')) return err('elab', `<input>:1:${expr.length}: unexpected token; expected term`);
      const id = nextState++;
      const root = fresh();
      states.set(id, [{ name: root, target: expr, vars: [] }]);
      return { stateId: id, root };
    }
    case 'goal.print': {
      const goals = states.get(Number(payload.stateId));
      if (!goals) return err('index', `Invalid state index ${String(payload.stateId)}`);
      if (dialect === '0.2') return { root: null, parent: null };
      return { ...(payload.goals === true ? { goals: goals.map(goalJson) } : {}), extraMVars: [], rootHasSorry: false, rootHasUnsafe: false, rootHasMVar: true };
    }
    case 'goal.delete': {
      for (const id of (payload.stateIds as number[] | undefined) ?? []) states.delete(id);
      return {};
    }
    case 'goal.tactic': {
      const stateId = Number(payload.stateId);
      const goals = states.get(stateId);
      if (!goals) return err('index', `Invalid state index ${stateId}`);
      const goalId = payload.goalId === undefined ? 0 : Number(payload.goalId);
      const goal = goals[goalId];
      if (!goal) return err('index', `Invalid goal index ${goalId}`);
      const others = goals.filter((_, i) => i !== goalId);
      let outcome: Outcome;
      if (typeof payload.tactic === 'string') outcome = runTactic(goal, payload.tactic);
      else if (typeof payload.have === 'string') {
        const binder = typeof payload.binderName === 'string' ? payload.binderName : '';
        if (!balanced(payload.have)) outcome = { parseError: '<input>:1:0: unexpected end of input' };
        else outcome = { goals: [{ name: fresh(), target: payload.have, vars: goal.vars }, { name: fresh(), userName: goal.userName, target: goal.target, vars: [...goal.vars, { name: fresh(), userName: binder, type: payload.have, isInaccessible: false }] }] };
      } else return err('operation', 'Exactly one of {tactic, mode, expr, have, let, draft} must be supplied');
      const finish = (o: Outcome): unknown => {
        if ('error' in o) return o.error;
        if ('parseError' in o) return dialect === '0.2' ? { parseError: o.parseError } : { parseError: o.parseError, hasSorry: false, hasUnsafe: false };
        if ('fail' in o) return dialect === '0.2' ? { tacticErrors: [o.fail] } : { messages: [message(o.fail)], hasSorry: false, hasUnsafe: false };
        if ('delay' in o) return finish(o.then());
        const next = [...o.goals, ...others];
        const id = nextState++;
        states.set(id, next);
        if (dialect === '0.2') return { nextStateId: id, goals: next.map(goalJson) };
        return { nextStateId: id, goals: next.map(goalJson), messages: o.messages ?? [], hasSorry: o.sorry === true, hasUnsafe: false };
      };
      if ('delay' in outcome) {
        const o = outcome;
        return new Promise((resolve) => setTimeout(() => resolve(finish(o.then())), o.delay));
      }
      return finish(outcome);
    }
    default: return err('command', `Unknown command ${cmd}`);
  }
}

// Importing "modules": an unknown one fails like Lean's importModules does, before `ready.`.
const bad = imports.find((m) => !/^(Init|Mathlib|Aesop|Std|Batteries)(\.|$)/.test(m));
if (bad !== undefined) {
  out(err('io', `unknown module prefix '${bad}'`));
  process.exit(0);
}
process.stdout.write('ready.\n');

let queue = Promise.resolve();
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  queue = queue.then(async () => {
    if (line.trim() === '') process.exit(0);
    let cmd: string; let payload: unknown;
    try {
      const s = line.trim();
      if (s.startsWith('{')) ({ cmd, payload } = JSON.parse(s) as { cmd: string; payload: unknown });
      else {
        const sp = s.indexOf(' ');
        cmd = sp < 0 ? s : s.slice(0, sp);
        payload = sp < 0 ? null : JSON.parse(s.slice(sp + 1));
      }
    } catch (e) {
      out(err('command', `Unable to parse json: ${(e as Error).message}`));
      return;
    }
    out(await answer(cmd, (payload ?? {}) as Record<string, unknown>));
  });
});
