/**
 * PANTOGRAPH TEST DOUBLE — a small real process for tests, never used by the product: Lean cannot be
 * installed on our machines, so Arbor's Lean backend is tested against this stand-in for Pantograph's
 * `repl`. It follows the real program's behaviour for the version it claims, as read from the source of
 * `lenianiva/Pantograph` at tags v0.2.25 … v0.3.4 (`Main.lean`, `Repl.lean`, `Pantograph/Protocol.lean`,
 * `Pantograph/Library.lean`, `Pantograph/Delate.lean`, `Test/Integration.lean`) and the expectations of
 * the PyPantograph 0.3.15 client. `PANTOGRAPH_DOUBLE_VERSION` picks the version (default 0.3.4):
 *   - `--version` alone prints the version; beside other arguments it is taken as a Lean option, which
 *     does not parse: Lean's `uncaught exception: …` on stderr, exit code 1 (`Main.lean`);
 *   - at start-up (not for `--version`) it finds Lean's system root as `Lean.findSysroot` does: LEAN_SYSROOT,
 *     else `lean --print-prefix` on PATH; without a `lean` it ends with `uncaught exception: process 'lean'
 *     exited with code 255 …`; `Init`/`Lean`/`Std` come from `<sysroot>/lib/lean`, and an `Init.olean` of
 *     another Lean than the one it is built with (PANTOGRAPH_DOUBLE_TOOLCHAIN, default v4.21.0) ends it
 *     with `failed to read file '…', incompatible header` (`lean-toolchain-double.ts` makes a toolchain);
 *   - imports are loaded before `ready.`, outside any handler: a module that cannot be found ends the
 *     process with `uncaught exception: unknown module prefix …`, exit code 1 — no JSON;
 *   - a runtime limit (maxRecDepth, maxHeartbeats) in a tactic answers `{"error":"core", …}`: toy rules,
 *     `rfl`/`decide` on a goal with a literal of six or more digits, `simp_all` on a goal naming `loop`;
 *   - 0.2.25 and 0.3.0 never flush stdout (Lean's buffer is written at exit or when 8 KiB are full);
 *     from 0.3.1 every answer is flushed;
 *   - before 0.3.1 a failed tactic answers `tacticErrors`, with no `hasSorry`/`hasUnsafe`; from 0.3.1
 *     `messages` (strings) and both flags; from 0.3.4 `messages` are Lean message objects;
 *   - before 0.3.3 goals carry `isConversion` and `goalId` defaults to 0; from 0.3.3 `fragment`;
 *   - before 0.3.4 what a tactic prints lands on stdout ahead of the answer; from 0.3.4 it goes to stderr
 *     as `stdout: …`; the `timeout` option exists from 0.3.0 (an interrupt answers
 *     `{"error":"internal","desc":"interrupt"}`);
 *   - `goal.delete`, `goal.print` (`rootHasSorry`/`rootHasUnsafe`/`rootHasMVar` from 0.3.1), `stat`,
 *     `options.set`/`options.print`, error kinds `command`, `index`, `parsing`, `elab`, `operation`/`arguments`;
 *   - `printExprAST` prints Pantograph's raw s-expressions (`(:forall x T B)`, `(:c Name)`, `(:fv id)`,
 *     bound variables as their de Bruijn index, `(:lit n)`, `(:sort 0)`).
 * Its "Lean" is a toy: a handful of tactics over goal strings, enough to drive every path of the client.
 * Double-only triggers (no Lean meaning): the tactic `crash!` kills the process; `stdout! TEXT` prints
 * TEXT the way a tactic that writes to stdout would; `sleep N` runs for N ms (interrupted by the
 * `timeout` option); `spin N` runs for N ms ignoring it, like a tactic that never checks for cancellation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runProcess } from '../../../process/process-manager.ts';

const VERSIONS = ['0.2.25', '0.3.0', '0.3.1', '0.3.2', '0.3.3', '0.3.4'] as const;
const version = process.env.PANTOGRAPH_DOUBLE_VERSION ?? '0.3.4';
if (!(VERSIONS as readonly string[]).includes(version)) {
  process.stderr.write(`pantograph-double: no such version ${version}\n`);
  process.exit(2);
}
const at = (v: string): boolean => VERSIONS.indexOf(version as (typeof VERSIONS)[number]) >= VERSIONS.indexOf(v as (typeof VERSIONS)[number]);
const has = {
  flush: at('0.3.1'),
  timeout: at('0.3.0'),
  sorryFlags: at('0.3.1'),
  fragment: at('0.3.3'),
  optionalGoalId: at('0.3.3'),
  serialMessages: at('0.3.4'),
  isolatedStdout: at('0.3.4'),
};

// --- stdout as Lean's: flushed per answer from 0.3.1, block-buffered before ---
let pending = '';
function emit(text: string): void {
  if (has.flush) {
    process.stdout.write(`${text}\n`);
    return;
  }
  pending += `${text}\n`;
  if (pending.length >= 8192) {
    process.stdout.write(pending);
    pending = '';
  }
}
function exit(code: number): never {
  if (pending !== '') process.stdout.write(pending);
  process.exit(code);
}
function uncaught(message: string): never {
  process.stderr.write(`uncaught exception: ${message}\n`);
  exit(1);
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  // Some later builds print the Lean toolchain after the version (`0.3.7/v4.21.0`).
  process.stdout.write(`${version}${process.env.PANTOGRAPH_DOUBLE_VERSION_SUFFIX ?? ''}\n`);
  process.exit(0);
}
// `Main.lean` (v0.3.4, commit 757db11a, `main`): `Lean.initSearchPath (← Lean.findSysroot)` runs before the
// options are read and outside any handler. `findSysroot` (leanprover/lean4 `src/Lean/Util/Path.lean`) takes
// LEAN_SYSROOT, else runs `lean --print-prefix` through `IO.Process.run`, which throws when `lean` exits
// non-zero; a `lean` that cannot be executed is the child's failure, exit 255 with "could not execute
// external process 'lean'" on its stderr (`src/runtime/process.cpp`). Lean's own library is
// `<sysroot>/lib/lean` (`getBuiltinSearchPath`), read only by `importModules`.
const sysroot = await findSysroot();
/** The Lean this double claims to be built with: an `.olean` written by another Lean is refused. */
const toolchain = process.env.PANTOGRAPH_DOUBLE_TOOLCHAIN ?? 'v4.21.0';
async function findSysroot(): Promise<string> {
  const fromEnv = process.env.LEAN_SYSROOT;
  if (fromEnv !== undefined) return fromEnv;
  // `IO.Process.run` waits without a limit: a `lean` that hangs holds the repl before `ready.` (the longest
  // timer Node allows stands for "none").
  const r = await runProcess({ program: 'lean', args: ['--print-prefix'], timeoutMs: 2_147_483_647 });
  if (r.exitCode !== 0) {
    // No exit code: the program could not be started (what Lean's child reports as exit 255).
    const started = r.exitCode !== null;
    uncaught(`process 'lean' exited with code ${started ? String(r.exitCode) : '255'}\nstderr:\n${started ? r.stderr : "could not execute external process 'lean'\n"}`);
  }
  return r.stdout.trim();
}
const leanOptions = args.filter((a) => a.startsWith('--')).map((a) => a.slice(2));
const imports = args.filter((a) => !a.startsWith('--'));
for (const o of leanOptions) {
  if (o.split('=').length !== 2) uncaught("Options cannot be parsed: invalid configuration option entry, it must be of the form '<key> = <value>'");
}
const libDir = join(sysroot, 'lib', 'lean');
const searchPath = [...(process.env.LEAN_PATH ?? '').split(':').filter(Boolean), libDir];
// Lean's own modules come from the sysroot's library (toy: its `Init.olean`); the toy pretends the others
// it knows are on LEAN_PATH.
const leanOwn = imports.find((m) => /^(Init|Lean|Std)(\.|$)/.test(m));
if (leanOwn !== undefined) {
  const olean = join(libDir, 'Init.olean');
  let header: string | undefined;
  try {
    header = readFileSync(olean, 'utf8');
  } catch {
    const pkg = leanOwn.split('.')[0] ?? leanOwn;
    uncaught(`unknown module prefix '${pkg}'\n\nNo directory '${pkg}' or file '${pkg}.olean' in the search path entries:\n${searchPath.join('\n')}`);
  }
  // Lean refuses an `.olean` written by another Lean (`src/runtime/object.cpp`/`module.cpp`: githash check).
  if (header.split('\n')[1] !== toolchain) uncaught(`failed to read file '${olean}', incompatible header`);
}
const bad = imports.find((m) => !/^(Init|Lean|Std|Mathlib|Aesop|Batteries)(\.|$)/.test(m));
if (bad !== undefined) {
  const pkg = bad.split('.')[0] ?? bad;
  uncaught(`unknown module prefix '${pkg}'\n\nNo directory '${pkg}' or file '${pkg}.olean' in the search path entries:\n${searchPath.join('\n')}`);
}
const mathlib = imports.some((m) => m === 'Mathlib' || m.startsWith('Mathlib.'));

// --- the toy prover ---
interface Var { name: string; userName: string; type: string; isInaccessible: boolean }
interface G { name: string; userName?: string; target: string; vars: Var[] }
interface St { goals: G[]; rootAssigned: boolean; sorry: boolean; unsafe: boolean }
const states = new Map<number, St>();
let nextState = 0;
let uniq = 100;
const options: Record<string, unknown> = { printJsonPretty: false, printExprPretty: true, printExprAST: false, printDependentMVars: false, noRepeat: false, printAuxDecls: false, printImplementationDetailHyps: false, automaticMode: true };
if (has.timeout) options.timeout = 0;

const fresh = (): string => `_uniq.${uniq++}`;
const err = (error: string, desc: string): unknown => ({ error, desc });

// Raw s-expressions as Pantograph prints them (`serializeExpressionSexp`), from the toy's goal strings.
const TOKEN = /\s*(∀|∃|→|∧|∨|≤|≥|≠|[=<>+*\-(),:]|[A-Za-z_ℕ\u0370-\u03ff][\w'.✝ℕ\u0370-\u03ff]*|\d+)/y;
function sexpOf(text: string, context: Var[]): string {
  const toks: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < text.length && (m = TOKEN.exec(text))) toks.push(m[1] as string);
  if (toks.join('').length !== text.replace(/\s+/g, '').length) return `(:lit ${JSON.stringify(text)})`;
  let i = 0;
  const peek = (): string | undefined => toks[i];
  const take = (t?: string): string => {
    const x = toks[i++];
    if (x === undefined || (t !== undefined && x !== t)) throw new Error('toy parse');
    return x;
  };
  const nat = '(:c Nat)';
  const num = (n: string): string => `((:c OfNat.ofNat) ${nat} (:lit ${n}) ((:c instOfNatNat) (:lit ${n})))`;
  const BIN: Record<string, string> = {
    '=': `(:c Eq) ${nat}`, '≠': `(:c Ne) ${nat}`, '≤': `(:c LE.le) ${nat} (:c instLENat)`, '<': `(:c LT.lt) ${nat} (:c instLTNat)`,
    '≥': `(:c GE.ge) ${nat} (:c instLENat)`, '>': `(:c GT.gt) ${nat} (:c instLTNat)`,
    '+': `(:c HAdd.hAdd) ${nat} ${nat} ${nat} ((:c instHAdd) ${nat} (:c instAddNat))`,
    '-': `(:c HSub.hSub) ${nat} ${nat} ${nat} ((:c instHSub) ${nat} (:c instSubNat))`,
    '*': `(:c HMul.hMul) ${nat} ${nat} ${nat} ((:c instHMul) ${nat} (:c instMulNat))`,
    '∧': '(:c And)', '∨': '(:c Or)',
  };
  const ident = (x: string, bound: string[]): string => {
    const k = bound.indexOf(x);
    if (k >= 0) return String(k);
    const local = [...context].reverse().find((v) => v.userName === x);
    if (local) return `(:fv ${local.name})`;
    if (x === 'Prop') return '(:sort 0)';
    if (x === 'Type') return '(:sort 1)';
    if (x === 'ℕ' || x === 'Nat') return nat;
    return `(:c ${x})`;
  };
  const term = (bound: string[]): string => {
    const q = peek();
    if (q === '∀' || q === '∃') {
      take();
      const binders: [string, string][] = [];
      while (peek() !== ',') {
        if (peek() === '(') {
          take('(');
          const names: string[] = [];
          while (peek() !== ':') names.push(take());
          take(':');
          const typeToks: string[] = [];
          while (peek() !== ')') typeToks.push(take());
          take(')');
          names.forEach((n) => binders.push([n, typeToks.join(' ')]));
        } else binders.push([take(), 'ℕ']);
      }
      take(',');
      const go = (k: number, b: string[]): string => {
        if (k === binders.length) return term(b);
        const [name, type] = binders[k] as [string, string];
        const t = sexpOf(type, context);
        const body = go(k + 1, [name, ...b]);
        return q === '∀' ? `(:forall ${name} ${t} ${body})` : `((:c Exists) ${t} (:lambda ${name} ${t} ${body}))`;
      };
      return go(0, bound);
    }
    const left = binary(bound, 0);
    if (peek() === '→') {
      take();
      // A non-dependent arrow is a `forall` whose body sees one more binder.
      return `(:forall a ${left} ${term(['', ...bound])})`;
    }
    return left;
  };
  const LEVELS = [['∨'], ['∧'], ['=', '≠', '≤', '<', '≥', '>'], ['+', '-'], ['*']];
  const binary = (bound: string[], level: number): string => {
    if (level === LEVELS.length) return app(bound);
    let left = binary(bound, level + 1);
    for (let op = peek(); op !== undefined && (LEVELS[level] as string[]).includes(op); op = peek()) {
      take();
      // ∧ and ∨ associate to the right, arithmetic to the left.
      if (level <= 1) return `(${BIN[op]} ${left} ${binary(bound, level)})`;
      left = `(${BIN[op]} ${left} ${binary(bound, level + 1)})`;
    }
    return left;
  };
  const app = (bound: string[]): string => {
    const parts = [atom(bound)];
    while (peek() !== undefined && (peek() === '(' || /^[\w\d]/.test(peek() as string)) && !['∀', '∃'].includes(peek() as string)) parts.push(atom(bound));
    return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' ')})`;
  };
  const atom = (bound: string[]): string => {
    const t = take();
    if (t === '(') {
      const inner = term(bound);
      take(')');
      return inner;
    }
    if (/^\d+$/.test(t)) return num(t);
    return ident(t, bound);
  };
  try {
    const out = term([]);
    if (i !== toks.length) throw new Error('toy parse');
    return out;
  } catch {
    return `(:lit ${JSON.stringify(text)})`;
  }
}

const expr = (text: string, context: Var[]): Record<string, string> => ({
  ...(options.printExprPretty === true ? { pp: text } : {}),
  ...(options.printExprAST === true ? { sexp: sexpOf(text, context) } : {}),
});
const goalJson = (g: G): unknown => {
  const vars = g.vars.map((v, i) => ({ name: v.name, userName: v.userName, isInaccessible: v.isInaccessible, type: expr(v.type, g.vars.slice(0, i)) }));
  const base: Record<string, unknown> = { name: g.name };
  if (g.userName !== undefined) base.userName = g.userName;
  if (has.fragment) base.fragment = 'tactic'; else base.isConversion = false;
  return { ...base, target: expr(g.target, g.vars), vars };
};
const message = (data: string, severity: 'error' | 'information' = 'error'): unknown => has.serialMessages
  ? { fileName: '<Pantograph>', pos: { line: 1, column: 0 }, endPos: null, keepFullRange: false, severity, caption: '', data, kind: '[anonymous]' }
  : `<Pantograph>:1:0: ${severity === 'error' ? 'error: ' : ''}${data}`;

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

type Outcome =
  | { goals: G[]; messages?: unknown[]; sorry?: boolean; unsafe?: boolean }
  | { fail: string } | { parseError: string } | { error: unknown } | { delay: number; then: () => Outcome };

const UNKNOWN_TACTIC = '<Pantograph>:1:0: unknown tactic';

function runTactic(g: G, tactic: string): Outcome {
  const t = tactic.trim();
  if (!balanced(t)) return { parseError: "<Pantograph>:1:0: unexpected end of input; expected ')'" };
  if (t === 'crash!') exit(1);
  const assumption = g.vars.find((v) => v.type === unparen(g.target) || v.type === g.target);
  let m: RegExpExecArray | null;
  if ((m = /^stdout!\s+(.*)$/.exec(t))) {
    // What a tactic prints: from 0.3.4 `IO.FS.withIsolatedStreams` sends it to stderr; before, it is on stdout.
    if (has.isolatedStdout) process.stderr.write(`stdout: ${m[1] ?? ''}\n`);
    else emit(m[1] ?? '');
    return { goals: [{ ...g, name: fresh() }] };
  }
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
  if (t === 'sorry' || t === 'admit' || t === 'exact sorry') return { goals: [], sorry: true };
  if (/^exact\s+\(?unsafeCast\b/.test(t)) return { goals: [], unsafe: true };
  if ((m = /^exact\s+([\w']+)$/.exec(t))) {
    const v = g.vars.find((x) => x.userName === m?.[1]);
    return v && (v.type === g.target || v.type === unparen(g.target)) ? { goals: [] } : { fail: `type mismatch\n  ${m[1]}` };
  }
  if (t === 'assumption') return assumption ? { goals: [] } : { fail: `tactic 'assumption' failed\n⊢ ${g.target}` };
  if ((t === 'rfl' || t === 'decide') && /\d{6,}/.test(g.target)) {
    // Toy rule: reducing a large literal by evaluation exhausts `maxRecDepth`. Lean's `Core.tryCatch`
    // re-throws runtime exceptions (`isRuntime`: maxHeartbeats, maxRecDepth) instead of handing them to the
    // handler, so they pass Pantograph's `catch` in `runCoreM` and come out as `{"error":"core", …}`
    // (`Repl.lean` v0.3.4 line 76: `Exception.error _ msg => … error := "core"`).
    return { error: err('core', 'maximum recursion depth has been reached\nuse `set_option maxRecDepth <num>` to increase limit\nuse `set_option diagnostics true` to get diagnostic information') };
  }
  if (t === 'simp_all' && /\bloop\b/.test(g.target)) {
    // Toy rule: `simp_all` loops on a goal naming `loop` until the heartbeat limit (a `core` error, as above).
    return { error: err('core', '(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been reached\nUse `set_option maxHeartbeats <num>` to set the limit.\nAdditional diagnostic information may be available using the `set_option diagnostics true` command.') };
  }
  if (['rfl', 'decide', 'omega', 'norm_num', 'trivial'].includes(t)) {
    if (t === 'norm_num' && !mathlib) return { parseError: UNKNOWN_TACTIC };
    return arithTrue(g.target) ? { goals: [] } : { fail: `${t} failed to prove the goal\n⊢ ${g.target}` };
  }
  if ((m = /^simp_all(?:\s*\[(.*)\])?$/.exec(t))) {
    if (arithTrue(g.target) || assumption) return { goals: [] };
    const parts = splitTop(g.target, '∧');
    if (parts && (arithTrue(parts[0]) || arithTrue(parts[1]))) return { goals: [{ ...g, name: fresh(), target: arithTrue(parts[0]) ? parts[1] : parts[0] }] };
    return { fail: 'simp_all made no progress' };
  }
  if (['linarith', 'nlinarith', 'aesop', 'positivity'].includes(t)) {
    if (!mathlib) return { parseError: UNKNOWN_TACTIC };
    return arithTrue(g.target) || assumption ? { goals: [] } : { fail: `${t} failed` };
  }
  if (t === 'exact?') {
    if (assumption) return { goals: [], messages: [message(`Try this: exact ${assumption.userName}`, 'information')] };
    return { fail: '`exact?` could not close the goal. Try `apply?` to see partial suggestions.' };
  }
  if ((m = /^sleep\s+(\d+)$/.exec(t))) {
    const ms = Number(m[1]);
    const timeout = Number(options.timeout ?? 0);
    if (has.timeout && timeout > 0 && timeout < ms) return { delay: timeout, then: () => ({ error: err('internal', 'interrupt') }) };
    return { delay: ms, then: () => ({ goals: [{ ...g, name: fresh() }] }) };
  }
  if ((m = /^spin\s+(\d+)$/.exec(t))) {
    // A tactic that never checks for cancellation: the timeout option cannot stop it (doc/rationale.md).
    return { delay: Number(m[1]), then: () => ({ goals: [{ ...g, name: fresh() }] }) };
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
  return { parseError: UNKNOWN_TACTIC };
}

/**
 * The toy evaluates arithmetic with JavaScript's parser, whose stack a deeply nested term (thousands of
 * parentheses) exhausts; Lean meets such a term with its own recursion limit, a `core` error (see above), and
 * goes on serving. So does the double.
 */
function runTacticWithinLimits(g: G, tactic: string): Outcome {
  try {
    return runTactic(g, tactic);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return { error: err('core', 'maximum recursion depth has been reached\nuse `set_option maxRecDepth <num>` to increase limit\nuse `set_option diagnostics true` to get diagnostic information') };
  }
}

function tacticAnswer(st: St, goalId: number, o: Outcome): unknown {
  if ('error' in o) return o.error;
  if ('delay' in o) return tacticAnswer(st, goalId, o.then());
  if ('parseError' in o) return has.sorryFlags ? { parseError: o.parseError, hasSorry: false, hasUnsafe: false } : { parseError: o.parseError };
  if ('fail' in o) return has.sorryFlags ? { messages: [message(o.fail)], hasSorry: false, hasUnsafe: false } : { tacticErrors: [o.fail] };
  // Automatic mode, goal preferred: its successors first, then the other goals in their order.
  const next: St = {
    goals: [...o.goals, ...st.goals.filter((_, i) => i !== goalId)],
    rootAssigned: true,
    sorry: st.sorry || o.sorry === true,
    unsafe: st.unsafe || o.unsafe === true,
  };
  const id = nextState++;
  states.set(id, next);
  const goals = next.goals.map(goalJson);
  if (!has.sorryFlags) return { nextStateId: id, goals };
  return { nextStateId: id, goals, messages: o.messages ?? [], hasSorry: o.sorry === true, hasUnsafe: o.unsafe === true };
}

function answer(cmd: string, payload: Record<string, unknown>): unknown {
  switch (cmd) {
    case 'reset': { const n = states.size; states.clear(); nextState = 0; return { nGoals: n }; }
    case 'stat': return { nGoals: states.size };
    case 'options.print': return options;
    case 'options.set': {
      // Lean's derived FromJson ignores fields it does not know (`timeout` before 0.3.0).
      for (const [k, v] of Object.entries(payload)) if (k in options) options[k] = v;
      return {};
    }
    case 'goal.start': {
      const e = payload.expr;
      if (typeof e !== 'string') return err('arguments', 'Exactly one of {expr, copyFrom} must be supplied');
      if (!balanced(e) || e.includes('@@')) return err('parsing', `<stdin>:1:${e.length}: unexpected end of input; expected term`);
      const unknown = /\b(undefined_\w*)/.exec(e);
      if (unknown) return err('elab', `unknown identifier '${unknown[1]}'`);
      // A term that is not a type: Lean's `elabType` (`Elab/Term.lean`) says "type expected, got (e : T)".
      if (e.trim() === 'Nat.succ') return err('elab', 'type expected, got\n  (Nat.succ : Nat → Nat)');
      const id = nextState++;
      const root = fresh();
      states.set(id, { goals: [{ name: root, target: e, vars: [] }], rootAssigned: false, sorry: false, unsafe: false });
      return { stateId: id, root };
    }
    case 'goal.print': {
      const st = states.get(Number(payload.stateId));
      if (!st) return err('index', `Invalid state index ${String(payload.stateId)}`);
      const result: Record<string, unknown> = {};
      if (payload.rootExpr === true && st.rootAssigned) result.root = { ...(options.printExprPretty === true ? { pp: 'pantographDoubleProof' } : {}), ...(options.printExprAST === true ? { sexp: '(:c pantographDoubleProof)' } : {}) };
      result.goals = payload.goals === true ? st.goals.map(goalJson) : [];
      result.extraMVars = [];
      if (has.sorryFlags) {
        result.rootHasSorry = st.rootAssigned && st.sorry;
        result.rootHasUnsafe = st.rootAssigned && st.unsafe;
        result.rootHasMVar = st.rootAssigned && st.goals.length > 0;
      }
      return result;
    }
    case 'goal.delete': {
      const ids = payload.stateIds;
      if (!Array.isArray(ids)) return err('command', 'Unable to parse json: Pantograph.Protocol.GoalDelete.stateIds: array expected');
      for (const id of ids) states.delete(Number(id));
      return {};
    }
    case 'goal.tactic': {
      const stateId = Number(payload.stateId);
      const st = states.get(stateId);
      if (!st) return err('index', `Invalid state index ${stateId}`);
      if (payload.goalId === undefined && !has.optionalGoalId) payload.goalId = 0;
      const goalId = payload.goalId === undefined ? 0 : Number(payload.goalId);
      const goal = st.goals[goalId];
      if (!goal) return err('index', payload.goalId === undefined ? 'No goals to be solved' : `Invalid goal index ${goalId}`);
      let outcome: Outcome;
      if (typeof payload.tactic === 'string') outcome = runTacticWithinLimits(goal, payload.tactic);
      else if (typeof payload.have === 'string') {
        const binder = typeof payload.binderName === 'string' ? payload.binderName : '';
        if (!balanced(payload.have)) outcome = { parseError: '<stdin>:1:0: unexpected end of input' };
        else outcome = { goals: [{ name: fresh(), target: payload.have, vars: goal.vars }, { name: fresh(), ...(goal.userName !== undefined ? { userName: goal.userName } : {}), target: goal.target, vars: [...goal.vars, { name: fresh(), userName: binder, type: payload.have, isInaccessible: false }] }] };
      } else if (has.fragment) return err('operation', 'Exactly one of {tactic, mode, expr, have, let, draft} must be supplied');
      else return err('arguments', 'Exactly one of {tactic, expr, have, let, calc, conv, draft} must be supplied');
      if ('delay' in outcome) {
        const o = outcome;
        return new Promise((resolve) => setTimeout(() => resolve(tacticAnswer(st, goalId, o.then())), o.delay));
      }
      return tacticAnswer(st, goalId, outcome);
    }
    default: return err('command', `Unknown command ${cmd}`);
  }
}

emit('ready.');

let queue = Promise.resolve();
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  queue = queue.then(async () => {
    // An empty line ends the REPL (`Main.lean`).
    if (line.trim() === '') exit(0);
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
      emit(JSON.stringify(err('command', (e as Error).message)));
      return;
    }
    emit(JSON.stringify(await answer(cmd, (payload ?? {}) as Record<string, unknown>)));
  });
});
rl.on('close', () => exit(0));
