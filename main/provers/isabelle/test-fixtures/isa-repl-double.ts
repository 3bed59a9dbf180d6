/**
 * TEST DOUBLE, never used by the product: an Isa-REPL server (github.com/xqyww123/Isa-REPL,
 * `library/Server.ML`, protocol version 0.14.1) with the Minilang REPL app (github.com/xqyww123/Isa-Mini
 * v0.6.0, `REPL/library/toplevel.ML`), for machines without Isabelle. Its wire behaviour follows those
 * sources and is checked against the real Python clients (`../real-client.test.ts`); its
 * *logic* is a toy, documented here, not Isabelle:
 *
 * - REPL mode: `heartbeat`, `kill N`, the version handshake, `\x05trace`/`notrace`, `load`, `addlibs`,
 *   `ML` (only Minilang's app registration), `record`, `rollback`, `app`, `eval` (tuple form) and plain
 *   theory source of the form `theory T imports … begin` + `lemma [name:] "goal"`. Known theories: `Main`,
 *   `Complex_Main`, `HOL…`, `HOL-*.X`, `Minilang.*`, `Minilang_REPL.*`.
 * - Minilang mode: `\stamp`, `\rollback`, `\conclude`, `\close`, `\print`, `\eval`, `\END_mode`, and source
 *   split at Minilang's command keywords (v0.6.0's list) into commands, all or nothing.
 * - Goals are strings. The "hammer" (END, NEXT, HAMMER, APPLY of an automatic method) proves a goal unless it
 *   contains the word `False` or `unprovable`; on a goal containing `slow` it runs until interrupted (`kill`)
 *   or past its `\eval` limit (APPLY also past Minilang's per-command limit, `mini_single_cmd_timeout`,
 *   15 s unless `\eval` sets it: `PROOF FAIL : Timeout`); on a goal containing `stuck` it ignores those
 *   limits (ML code that Isabelle's Timeout cannot interrupt: the server answers nothing until `kill`).
 * - `kill N` ends session N's connection without an answer, busy or idle (the real worker's `finally`
 *   closes the socket); the accept loop takes one handshake at a time, so a silent new connection blocks
 *   the next ones. `RULE conjI`/`SIMP` split `A ∧ B` (also `&`, `\<and>`); `RULE impI`/`INTRO`
 *   introduce `A ⟶ B` (also `-->`, `\<longrightarrow>`) and `∀x. P` (`ALL`, `\<forall>`); `INDUCT x`,
 *   `CASE_SPLIT x`, `APPLY (induct x)`/`(cases x)` make two cases; `CHOOSE t` instantiates `∃x.` (`EX`,
 *   `\<exists>`); `UNFOLD c_def` rewrites `c`; `DEFINE x where "x = t"` fixes `x`; `STEP "t"` adds a fact;
 *   `CONFIG`, `NOTATION`, `OPEN_MODULE`, `LET`, `PRINT` leave the goal as it is. A term with unbalanced
 *   parentheses is an inner syntax error.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { decodeMultiStream, encode } from '@msgpack/msgpack';

type Items = [Record<string, string>, Record<string, string>];
type Wire = [0, Items, string] | [1, Items, Wire[]] | [2, Wire];

/** The proof tree the double keeps: the seed's tree plus Minilang's blocks (the goal a HAVE/CONSIDER opened). */
type Node =
  | { kind: 'prop'; vars: [string, string][]; facts: [string, string][]; goal: string }
  | { kind: 'bundle'; vars: [string, string][]; facts: [string, string][]; children: Node[] }
  | { kind: 'block'; child: Node };

interface ProofState { tree: Node; counter: number }
interface Toplevel { kind: 'toplevel' | 'theory' | 'proof'; theory?: string; lemma?: string; statement?: string }

export interface ExchangeRecord { kind: string; ok: boolean; error?: string }

export interface IsaReplDouble {
  host: string;
  port: number;
  address: string;
  /** Every message kind the double served, in order, with its outcome. */
  readonly log: ExchangeRecord[];
  /** Client ids of the sessions open now. */
  openSessions(): number[];
  /** Client ids of the sessions inside a long-running command now (one only `kill` or a limit ends). */
  runningSessions(): number[];
  close(): Promise<void>;
}

const VERSION = '0.14.1';
const MINILANG_VERSION = '0.3.5';
const REGISTER_ML = 'REPL_Server.register_app "Minilang-REPL" Minilang_Top.REPL_App';
/** Minilang v0.6.0's command keywords (`library/proof.ML`, `keywords`): the lexer splits commands at them. */
const KEYWORDS = new Set(['END', 'end', 'NEXT', 'SORRY', 'SORRY_NEXT', 'SORRY_END_ALL', 'SORRY_ONLY', 'CONSIDER', 'HAVE', 'SUFFICES', 'INST_VAR', 'SPECIALIZE', 'CASE_SPLIT', 'INDUCT', 'SIMP', 'SIMPLIFY', 'INTRO', 'ALL_INTRO', 'SPLIT_CONJS', 'SPLIT_CONJS2', 'HAMMER', 'PRINT', 'RULE', 'LET', 'APPLY', 'UNFOLD', 'CHOOSE', 'NOTATION', 'OPEN_MODULE', 'DEFINE', 'FUN', 'FUN_DEBUG', 'CONFIG', 'STEP', 'CHAINING']);
const AUTOMATIC_METHODS = new Set(['auto', 'simp', 'simp_all', 'blast', 'force', 'fastforce', 'fast', 'metis', 'meson', 'arith', 'linarith', 'presburger', 'clarsimp', 'smt', 'algebra']);

class Fail extends Error {}
class EndOfInput extends Error {}
class Interrupted extends Error {}

export interface IsaReplDoubleOptions {
  host?: string;
  port?: number;
  /**
   * Minilang's `mini_single_cmd_timeout` (Isa-Mini v0.6.0 `library/proof.ML` line 1774: `K 15000`), the
   * limit of one APPLY when `\eval` gives none (`APPLY_CMD`, line 1785); tests may shorten it.
   */
  singleCmdTimeoutMs?: number;
}

export async function startIsaReplDouble(options: IsaReplDoubleOptions = {}): Promise<IsaReplDouble> {
  const host = options.host ?? '127.0.0.1';
  const singleCmdTimeoutMs = options.singleCmdTimeoutMs ?? 15_000;
  const log: ExchangeRecord[] = [];
  const sessions = new Map<number, { socket: Socket; interrupt: () => void }>();
  const running = new Set<number>();
  let nextId = 1;
  let registered = false;
  // The real server's accept loop (`Server.ML` at 9b1fe15, `startup`, lines 311-350) reads each connection's
  // first value (and, for a session, its qualifier) itself, one connection at a time, before it forks the
  // session's worker: a client that connects and sends nothing holds every later connection — heartbeat and
  // `kill` included — until it sends or goes away.
  let acceptLoop: Promise<void> = Promise.resolve();
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    acceptLoop = acceptLoop.then(() => accept(socket)).catch(() => undefined);
  });

  /** The accept loop's part: the first value; for a session, the qualifier, then the worker runs on its own. */
  async function accept(socket: Socket): Promise<void> {
    const values = decodeMultiStream(socket)[Symbol.asyncIterator]();
    const read = async (): Promise<unknown> => {
      const r = await values.next();
      if (r.done) throw new EndOfInput();
      return r.value;
    };
    const send = (value: unknown, error: string | null = null): void => {
      socket.write(encode([value, error]));
    };
    const record = (kind: string, error?: string): void => {
      log.push(error === undefined ? { kind, ok: true } : { kind, ok: false, error });
    };
    const done = (): void => { socket.end(); };
    let first: unknown;
    let qualifier: unknown;
    try {
      first = await read();
      if (first === 'heartbeat') {
        send(null);
        record('heartbeat');
        done();
        return;
      }
      if (typeof first === 'string' && first.startsWith('kill ')) {
        const target = sessions.get(Number(first.slice(5)));
        target?.interrupt();
        send(target !== undefined);
        record('kill');
        done();
        return;
      }
      if (first !== VERSION) {
        const message = 'The server is connected with a wrong version of the client.\nPlease run `pip install "IsaREPL==0.14.0" --force-reinstall` to update your client.';
        send(null, message);
        record('handshake', message);
        done();
        return;
      }
      qualifier = await read();
      if (typeof qualifier !== 'string') throw new Error('qualifier must be a string');
    } catch {
      socket.destroy();
      return;
    }
    // The worker is forked: the accept loop goes on to the next connection.
    void serve(socket, read, send, record).catch(() => undefined).finally(() => socket.destroy());
  }

  async function serve(socket: Socket, readValue: Read, send: Send, record: Recorder): Promise<void> {
    const id = nextId++;
    let interrupt: (() => void) | undefined;
    const interrupted = (): Promise<never> => {
      running.add(id);
      return new Promise((_, reject) => { interrupt = () => reject(new Interrupted('Interrupt')); });
    };
    // Waiting for the next value: whatever ran is over.
    const read: Read = () => {
      running.delete(id);
      return readValue();
    };
    // `kill N` interrupts the worker thread (`Isabelle_Thread.interrupt_thread`). Busy or waiting for input, the
    // interrupt passes every handler — `\<^try> … catch` passes interrupts through (Server.ML line 816, Isa-Mini
    // `REPL/library/toplevel.ML` lines 171-184) — to the worker's `finally` (Server.ML lines 859-863), which
    // closes the connection: the client sees end of file and no answer.
    sessions.set(id, { socket, interrupt: () => { interrupt?.(); socket.destroy(); } });
    send([process.pid, id]);
    record('handshake');
    let toplevel: Toplevel = { kind: 'toplevel' };
    let trace = true;
    const history = new Map<string, Toplevel>([['init', toplevel]]);
    try {
      for (;;) {
        const source = await read();
        if (typeof source !== 'string') throw new Error('REPL mode expects a string');
        let kind = source.startsWith('\x05') ? source : 'eval-source';
        try {
          if (source === '\x05trace' || source === '\x05notrace') {
            trace = source === '\x05trace';
            send(null);
          } else if (source === '\x05load') {
            const [, names] = tuple(await read(), 2) as [string, unknown];
            const loaded = strings(names).map((n) => { knownTheory(n); return n.includes('.') ? n : `HOL.${n}`; });
            send(loaded);
          } else if (source === '\x05addlibs') {
            strings(await read()).forEach(knownTheory);
            send(null);
          } else if (source === '\x05ML') {
            const [, src] = tuple(await read(), 2);
            if (String(src).trim() !== REGISTER_ML) throw new Fail('test double: only Minilang\'s app registration is modelled in ML');
            registered = true;
            send(true);
          } else if (source === '\x05record') {
            history.set(string(await read()), toplevel);
            send(null);
          } else if (source === '\x05rollback') {
            const name = string(await read());
            const found = history.get(name);
            if (!found) throw new Fail(`Historical state ${name} is not found.`);
            toplevel = found;
            send(commandOutput('', toplevel));
          } else if (source === '\x05eval') {
            const [src] = tuple(await read(), 6);
            toplevel = evalTheory(string(src), toplevel);
            send(trace ? [commandOutput(string(src), toplevel)] : null);
          } else if (source === '\x05app') {
            const name = string(await read());
            const found = registered && name === 'Minilang-REPL';
            send(found);
            record(kind);
            kind = '';
            if (found) toplevel = await runMinilang(toplevel, read, send, record, interrupted, singleCmdTimeoutMs);
          } else if (source.startsWith('\x05')) {
            throw new Fail(`Unknown REPL command${source}`);
          } else {
            toplevel = evalTheory(source, toplevel);
            send(trace ? [commandOutput(source, toplevel)] : null);
          }
          if (kind !== '') record(kind);
        } catch (err) {
          if (err instanceof EndOfInput) throw err;
          if (err instanceof Interrupted) {
            record(kind || 'app', 'Interrupt: connection closed');
            throw err;
          }
          const message = err instanceof Error ? err.message : String(err);
          send(null, message);
          record(kind || 'app', message);
        }
      }
    } catch (err) {
      if (!(err instanceof EndOfInput || err instanceof Interrupted)) throw err;
    } finally {
      sessions.delete(id);
      running.delete(id);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host,
    port,
    address: `${host}:${port}`,
    log,
    openSessions: () => [...sessions.keys()],
    runningSessions: () => [...running],
    close: () => new Promise((resolve) => {
      for (const s of sessions.values()) s.socket.destroy();
      server.close(() => resolve());
    }),
  };
}

// --- REPL mode --------------------------------------------------------------------------------------------

function knownTheory(name: string): void {
  if (!/^(Main|Complex_Main|HOL(-[A-Za-z_]+)?(\.[A-Za-z_]+)?|Minilang(_REPL)?\.[A-Za-z_]+)$/.test(name)) throw new Fail(`test double: no theory ${name} in this installation`);
}

/** `theory T imports … begin` and optionally `lemma [name:] "goal"`: the toplevel afterwards. */
function evalTheory(source: string, toplevel: Toplevel): Toplevel {
  const header = /^\s*theory\s+([A-Za-z][\w']*)\s+imports\s+([\s\S]*?)\s+begin\b([\s\S]*)$/.exec(source);
  let state = toplevel;
  let rest = source;
  if (header) {
    if (toplevel.kind !== 'toplevel') throw new Fail('test double: a theory can only begin at the toplevel');
    for (const imp of (header[2] as string).split(/\s+/).filter(Boolean)) knownTheory(imp.replace(/^"|"$/g, ''));
    state = { kind: 'theory', theory: header[1] as string };
    rest = header[3] as string;
  }
  if (rest.trim() === '') return state;
  const lemma = /^\s*(?:lemma|theorem)\s+(?:([A-Za-z][\w']*)\s*:\s*)?"([^"]*)"\s*$/.exec(rest);
  if (!lemma) throw new Fail(`Outer syntax error: test double reads only \`lemma [name:] "goal"\`: ${rest.trim().slice(0, 60)}`);
  if (state.kind !== 'theory') throw new Fail('test double: a lemma needs a theory');
  checkTerm(lemma[2] as string);
  return { kind: 'proof', theory: state.theory as string, lemma: lemma[1] ?? '', statement: lemma[2] as string };
}

function commandOutput(command: string, t: Toplevel): unknown {
  const pos = [0, 0, 0, ['', '', '']];
  return [command, [], null, [t.kind === 'toplevel', t.kind === 'theory', t.kind === 'proof', t.kind === 'proof'], t.kind === 'toplevel' ? 0 : 1, t.kind === 'proof' ? `goal (1 subgoal):\n 1. ${t.statement ?? ''}` : '', {}, [], [pos, pos]];
}

// --- Minilang mode ----------------------------------------------------------------------------------------

type Read = () => Promise<unknown>;
type Send = (value: unknown, error?: string | null) => void;
type Recorder = (kind: string, error?: string) => void;
/** One command's answer: `(new items, the case entered, the tree after it)`. */
type Answer = [Items, string | null, Wire];

async function runMinilang(toplevel: Toplevel, read: Read, send: Send, record: Recorder, interrupted: () => Promise<never>, singleCmdTimeoutMs: number): Promise<Toplevel> {
  if (toplevel.kind !== 'proof') {
    send(null, 'Not in a proof');
    record('minilang-start', 'Not in a proof');
    return toplevel;
  }
  try {
    const [hasty, mode, params] = tuple(await read(), 3);
    if (typeof hasty !== 'boolean') throw new Fail('hasty must be a boolean');
    checkMode(mode);
    if (params !== null && typeof params !== 'string') throw new Fail('sledgehammer params must be a string or nil');
    for (const p of String(params ?? '').split(',').filter((x) => x.trim() !== '')) {
      if (p.split('=').length !== 2) throw new Fail(`Invalid auto_sledgehammer_params : ${p}`);
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    send(null, message);
    record('minilang-start', message);
    return toplevel;
  }
  send(MINILANG_VERSION);
  record('minilang-start');
  let state: ProofState = { tree: { kind: 'prop', vars: [], facts: [], goal: toplevel.statement as string }, counter: 0 };
  const stamps = new Map<string, ProofState>();
  const respond = (answers: Answer[], s: ProofState): void => {
    send([answers, finished(s.tree)]);
  };
  for (;;) {
    const cmd = await read();
    if (typeof cmd !== 'string') throw new Error('Minilang mode expects a string');
    const kind = cmd.startsWith('\\') ? cmd : cmd.startsWith('\x05') ? 'repl-command-in-minilang' : 'minilang-source';
    try {
      if (cmd === '\\stamp') {
        stamps.set(string(await read()), state);
        send(null);
      } else if (cmd === '\\rollback') {
        const name = string(await read());
        const s = stamps.get(name);
        if (!s) throw new Fail(`Snapshot named ${name} is not found`);
        state = s;
        send(null);
      } else if (cmd === '\\conclude') {
        if (!finished(state.tree)) throw new Fail('incomplete MINSHELL script');
        send([toplevel.statement as string, '']);
      } else if (cmd === '\\close') {
        send(null);
        record(kind);
        return toplevel;
      } else if (cmd === '\\print') {
        respond([[[{}, {}], null, print(state.tree)]], state);
      } else if (cmd === '\\eval') {
        const [total, perCommand, src] = tuple(await read(), 3);
        const { answers, next } = await evaluate(string(src), state, interrupted, optionalInt(total), optionalInt(perCommand) ?? singleCmdTimeoutMs);
        state = next;
        respond(answers, state);
      } else if (cmd === '\\END_mode') {
        checkMode(await read());
        send(null);
      } else if (cmd.startsWith('\\')) {
        throw new Fail(`Command ${cmd.slice(1)} is unsupported in Minilang mode`);
      } else if (cmd.startsWith('\x05')) {
        throw new Fail(`Command ${cmd.slice(1)} is only available in REPL mode, but you are at Minilang mode.`);
      } else {
        const { answers, next } = await evaluate(cmd, state, interrupted, undefined, singleCmdTimeoutMs);
        state = next;
        respond(answers, state);
      }
      record(kind);
    } catch (err) {
      if (err instanceof EndOfInput) throw err;
      if (err instanceof Interrupted) {
        record(kind, 'Interrupt: connection closed');
        throw err;
      }
      const message = err instanceof Error ? err.message : String(err);
      send(null, message);
      record(kind, message);
    }
  }
}

function checkMode(mode: unknown): void {
  if (mode !== 'RELAXED' && mode !== 'COMPLETE_NEXT' && mode !== 'STRICT') throw new Fail('working_mode must be either STRICT, RELAXED or COMPLETE_NEXT');
}

/** Minilang's `RE`: every command of the source, all or nothing; one answer per command. */
async function evaluate(source: string, start: ProofState, interrupted: () => Promise<never>, totalMs?: number, perCommandMs?: number): Promise<{ answers: Answer[]; next: ProofState }> {
  const run = async (): Promise<{ answers: Answer[]; next: ProofState }> => {
    let s = clone(start);
    const answers: Answer[] = [];
    for (const { head, args } of lex(source)) {
      const { state, items, ccase } = await step(head, args, s, interrupted, perCommandMs);
      s = state;
      answers.push([items, ccase, print(s.tree)]);
    }
    return { answers, next: s };
  };
  if (totalMs === undefined || isStuck(start.tree)) return run();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Fail(`Timeout after ${(totalMs / 1000).toFixed(3)}s`)), totalMs); });
  try {
    return await Promise.race([run(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Minilang's `lex_cmds`: tokens, split where a command keyword starts (strings, cartouches and comments are single tokens). */
function lex(source: string): { head: string; args: string }[] {
  const groups: { head: string; start: number }[] = [];
  let i = 0;
  let headless = -1;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '"' || c === '`') {
      if (groups.length === 0 && headless < 0) headless = i;
      i++;
      while (i < source.length && source[i] !== c) i += source[i] === '\\' ? 2 : 1;
      if (i >= source.length) throw new Fail('Outer lexical error: unclosed string');
      i++;
    } else if (source.startsWith('(*', i) || source.startsWith('‹', i) || source.startsWith('\\<open>', i)) {
      const [open, close] = source.startsWith('(*', i) ? ['(*', '*)'] : source.startsWith('‹', i) ? ['‹', '›'] : ['\\<open>', '\\<close>'];
      let depth = 0;
      do {
        if (source.startsWith(open, i)) { depth++; i += open.length; } else if (source.startsWith(close, i)) { depth--; i += close.length; } else i++;
      } while (depth > 0 && i < source.length);
      if (depth > 0) throw new Fail('Outer lexical error: unclosed comment or cartouche');
    } else if (/[A-Za-z_?']/.test(c)) {
      const word = /^[A-Za-z_?'][A-Za-z0-9_'.]*/.exec(source.slice(i))?.[0] ?? c;
      if (KEYWORDS.has(word)) groups.push({ head: word, start: i });
      else if (groups.length === 0 && headless < 0) headless = i;
      i += word.length;
    } else {
      if (!/\s/.test(c) && groups.length === 0 && headless < 0) headless = i;
      i++;
    }
  }
  if (headless >= 0) {
    const word = /^\S+/.exec(source.slice(headless))?.[0] ?? '';
    throw new Fail(`Bad Command ${word}`);
  }
  return groups.map((g, k) => ({ head: g.head, args: source.slice(g.start + g.head.length, groups[k + 1]?.start ?? source.length).trim() }));
}

interface StepResult { state: ProofState; items: Items; ccase: string | null }

async function step(head: string, args: string, s: ProofState, interrupted: () => Promise<never>, perCommandMs?: number): Promise<StepResult> {
  const current = leftmost(s.tree);
  const unchanged = (): StepResult => ({ state: s, items: [{}, {}], ccase: null });
  // `perCommandMs` is `mini_single_cmd_timeout`, which only APPLY (and CONFIG) read (`proof.ML` lines 1785,
  // 5895); a `stuck` goal is ML code that Isabelle's Timeout cannot interrupt.
  const hammer = async (goal: string, perCommand = false): Promise<boolean> => {
    if (goal.trim() === 'True') return true;
    if (/\b(slow|stuck)\b/.test(goal)) {
      if (perCommand && perCommandMs !== undefined && !/\bstuck\b/.test(goal)) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          await Promise.race([interrupted(), new Promise((_, reject) => { timer = setTimeout(() => reject(new Fail('PROOF FAIL : Timeout')), perCommandMs); })]);
        } finally {
          clearTimeout(timer);
        }
      }
      await interrupted();
    }
    return !/\b(False|unprovable)\b/.test(goal);
  };
  const need = (): { goal: string } => {
    if (!current || current.node.kind !== 'prop') throw new Fail('INVALID_OPR : No goal is left');
    return current.node;
  };
  switch (head) {
    case 'END':
    case 'end':
    case 'NEXT': {
      const { goal } = need();
      if (!(await hammer(goal))) throw new Fail('PROOF FAIL : Sledgehammer fails to prove the goal');
      return { ...unchanged(), state: { ...s, tree: removeLeftmost(s.tree) } };
    }
    case 'HAMMER': {
      const { goal } = need();
      if (!(await hammer(goal))) throw new Fail('PROOF FAIL : Sledgehammer fails to prove the goal');
      return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [prop('True')]) } };
    }
    case 'HAVE': {
      const { goal } = need();
      const m = /^(?:([A-Za-z][\w']*)\s*:\s*)?"([^"]*)"$/.exec(args);
      if (!m) throw new Fail('Outer syntax error: HAVE [name:] "statement"');
      checkTerm(m[2] as string);
      const name = m[1] ?? `fact${++s.counter}`;
      return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [{ kind: 'block', child: prop(m[2] as string) }, { kind: 'prop', vars: [], facts: [[name, m[2] as string]], goal }]) } };
    }
    case 'CONSIDER': {
      const { goal } = need();
      const m = /^([A-Za-z][\w' ]*?)(?:\s*::\s*"([^"]*)")?\s+where\s+([\s\S]+)$/.exec(args);
      if (!m) throw new Fail('Outer syntax error: CONSIDER x [:: "type"] where [name:] "cond" and …');
      if (/\|/.test(m[3] as string)) throw new Fail('test double: CONSIDER with several cases is not modelled');
      const vars = (m[1] as string).trim().split(/\s+/);
      const conds = (m[3] as string).split(/\s+and\s+/).map((c) => {
        const cm = /^(?:([A-Za-z][\w']*)\s*:\s*)?"([^"]*)"$/.exec(c.trim());
        if (!cm) throw new Fail(`Outer syntax error: bad condition ${c}`);
        checkTerm(cm[2] as string);
        return [cm[1] ?? `fact${++s.counter}`, cm[2] as string] as [string, string];
      });
      const exists = `∃${vars.join(' ')}. ${conds.map((c) => c[1]).join(' ∧ ')}`;
      const next: Node = { kind: 'prop', vars: vars.map((v) => [v, m[2] ?? "'a"]), facts: conds, goal };
      return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [{ kind: 'block', child: prop(exists) }, next]) } };
    }
    case 'SIMP':
    case 'INTRO':
    case 'ALL_INTRO': {
      const { goal } = need();
      const split = splitConj(goal);
      if (head === 'SIMP' && split) return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, split.map(prop)) } };
      const intro = introduce(goal);
      if (intro) return { state: { ...s, tree: replaceLeftmost(s.tree, [intro]) }, items: [Object.fromEntries(intro.kind === 'prop' ? intro.vars : []), Object.fromEntries(intro.kind === 'prop' ? intro.facts : [])], ccase: null };
      if (head === 'SIMP' && await hammer(goal)) return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [prop('True')]) } };
      throw new Fail(head === 'SIMP' ? 'PROOF FAIL : Fail to simplify' : 'INVALID_OPR : Nothing to introduce');
    }
    case 'RULE': {
      const { goal } = need();
      const rule = args.split(/\s/)[0] ?? '';
      const split = rule === 'conjI' ? splitConj(goal) : undefined;
      if (split) return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, split.map(prop)) } };
      const intro = rule === 'impI' || rule === 'allI' ? introduce(goal) : undefined;
      if (intro) return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [intro]) } };
      throw new Fail('PROOF FAIL : Fail to apply the rule');
    }
    case 'APPLY': {
      const { goal } = need();
      const method = /^\(?\s*([A-Za-z_]+)(?:\s+([A-Za-z_][\w']*))?/.exec(args);
      const name = method?.[1] ?? '';
      if (name === 'induct' || name === 'induction' || name === 'cases') return { state: { ...s, tree: replaceLeftmost(s.tree, cases(goal, name, method?.[2] ?? 'x')) }, items: [{}, {}], ccase: '1' };
      if (name === 'rule' && method?.[2] === 'conjI' && splitConj(goal)) return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, (splitConj(goal) as string[]).map(prop)) } };
      if (!AUTOMATIC_METHODS.has(name)) throw new Fail(`Undefined method: "${name}"`);
      if (!(await hammer(goal, true))) throw new Fail('PROOF FAIL : Fail to apply the tactic');
      return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [prop('True')]) } };
    }
    case 'INDUCT':
    case 'CASE_SPLIT': {
      const { goal } = need();
      const variable = /^[A-Za-z_][\w']*/.exec(args)?.[0];
      if (!variable) throw new Fail(`Outer syntax error: ${head} needs a variable`);
      return { state: { ...s, tree: replaceLeftmost(s.tree, cases(goal, head === 'INDUCT' ? 'induct' : 'cases', variable)) }, items: [{}, {}], ccase: '1' };
    }
    case 'UNFOLD': {
      const { goal } = need();
      const m = /^([A-Za-z][\w']*)_def$/.exec(args.trim());
      if (!m) throw new Fail('INVALID_OPR : bad rule: not an equation');
      const constant = m[1] as string;
      if (!new RegExp(`\\b${constant}\\b`).test(goal)) throw new Fail(`PROOF FAIL : ${constant} does not occur in the goal`);
      return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [prop(goal.replace(new RegExp(`\\b${constant}\\b`, 'g'), `(${constant}_unfolded)`))]) } };
    }
    case 'CHOOSE': {
      const { goal } = need();
      const m = /^(?:∃|EX\s|\\<exists>)\s*([A-Za-z_][\w']*)\s*\.\s*([\s\S]+)$/.exec(goal.trim());
      if (!m) throw new Fail('INVALID_OPR : The goal is not an existential');
      const term = args.replace(/^"|"$/g, '');
      checkTerm(term);
      return { ...unchanged(), state: { ...s, tree: replaceLeftmost(s.tree, [prop((m[2] as string).replace(new RegExp(`\\b${m[1] as string}\\b`, 'g'), `(${term})`))]) } };
    }
    case 'DEFINE': {
      const { goal } = need();
      const m = /^([A-Za-z][\w']*)\s+where\s+"([^"]*)"$/.exec(args);
      if (!m) throw new Fail('Outer syntax error: DEFINE x where "x = t"');
      checkTerm(m[2] as string);
      const node: Node = { kind: 'prop', vars: [[m[1] as string, "'a"]], facts: [[`${m[1] as string}_def`, m[2] as string]], goal };
      return { state: { ...s, tree: replaceLeftmost(s.tree, [node]) }, items: [{ [m[1] as string]: "'a" }, { [`${m[1] as string}_def`]: m[2] as string }], ccase: null };
    }
    case 'STEP': {
      const { goal } = need();
      const term = /"([^"]*)"\s*$/.exec(args)?.[1];
      if (term === undefined) throw new Fail('Outer syntax error: STEP [(facts)] "term"');
      checkTerm(term);
      if (!(await hammer(term))) throw new Fail('PROOF FAIL : Fail to prove the step');
      const name = `step${++s.counter}`;
      return { state: { ...s, tree: replaceLeftmost(s.tree, [{ kind: 'prop', vars: [], facts: [[name, term]], goal }]) }, items: [{}, { [name]: term }], ccase: null };
    }
    case 'SIMPLIFY': {
      need();
      const names = /^PREMISES\s+(.+?)(?:\s+WITH\b.*)?$/.exec(args)?.[1]?.split(/\s+/);
      if (!names) throw new Fail('Outer syntax error: SIMPLIFY PREMISES names [WITH rules]');
      const facts = new Set(contextOf(s.tree).map((f) => f[0]));
      const missing = names.find((n) => !facts.has(n));
      if (missing !== undefined) throw new Fail(`INVALID_OPR : No premise named ${missing}`);
      return unchanged();
    }
    case 'LET': {
      if (!/^\?[A-Za-z_][\w']*\s*=\s*"[^"]*"$/.test(args)) throw new Fail('Outer syntax error: LET ?x = "term"');
      return unchanged();
    }
    case 'PRINT':
    case 'CONFIG':
    case 'NOTATION':
    case 'OPEN_MODULE':
      if (head !== 'PRINT' && args === '') throw new Fail(`Outer syntax error: ${head} needs arguments`);
      return unchanged();
    case 'SORRY':
    case 'SORRY_NEXT':
      need();
      return { ...unchanged(), state: { ...s, tree: removeLeftmost(s.tree) } };
    default:
      throw new Fail(`test double: ${head} is not modelled`);
  }
}

function cases(goal: string, how: string, variable: string): Node[] {
  return [prop(`${goal} (${how} ${variable}: case 1)`), prop(`${goal} (${how} ${variable}: case 2)`)];
}

function splitConj(goal: string): string[] | undefined {
  const parts = splitTop(goal, /^(∧|&|\\<and>)/);
  return parts.length > 1 ? parts : undefined;
}

function introduce(goal: string): Node | undefined {
  const all = /^(?:∀|ALL\s|\\<forall>)\s*([A-Za-z_][\w']*)\s*\.\s*([\s\S]+)$/.exec(goal.trim());
  if (all) return { kind: 'prop', vars: [[all[1] as string, "'a"]], facts: [], goal: (all[2] as string).trim() };
  const imp = splitTop(goal, /^(⟶|-->|\\<longrightarrow>)/);
  if (imp.length > 1) return { kind: 'prop', vars: [], facts: [['premise', imp[0] as string]], goal: imp.slice(1).join(' ⟶ ') };
  return undefined;
}

/** Splits `text` at top-level (outside parentheses) occurrences of `op`. */
function splitTop(text: string, op: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0) {
      const m = op.exec(text.slice(i));
      if (m) {
        parts.push(text.slice(start, i).trim());
        i += m[0].length - 1;
        start = i + 1;
      }
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

function checkTerm(term: string): void {
  let depth = 0;
  for (const c of term) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) break;
  }
  if (depth !== 0 || term.trim() === '') throw new Fail('Inner syntax error: Failed to parse prop');
}

// --- the tree -----------------------------------------------------------------------------------------------

function prop(goal: string): Node {
  return { kind: 'prop', vars: [], facts: [], goal };
}

function clone(s: ProofState): ProofState {
  return JSON.parse(JSON.stringify(s)) as ProofState;
}

function finished(tree: Node): boolean {
  return tree.kind === 'bundle' && tree.children.length === 0;
}

function isStuck(tree: Node): boolean {
  const node = leftmost(tree)?.node;
  return node?.kind === 'prop' && /\bstuck\b/.test(node.goal);
}

function leftmost(tree: Node): { node: Node } | undefined {
  let node: Node = tree;
  for (;;) {
    if (node.kind === 'prop') return { node };
    if (node.kind === 'block') node = node.child;
    else if (node.children.length === 0) return undefined;
    else node = node.children[0] as Node;
  }
}

function contextOf(tree: Node): [string, string][] {
  const facts: [string, string][] = [];
  let node: Node | undefined = tree;
  while (node) {
    if (node.kind === 'block') node = node.child;
    else {
      facts.push(...node.facts);
      node = node.kind === 'bundle' ? node.children[0] : undefined;
    }
  }
  return facts;
}

/** The leftmost leaf becomes `nodes` (one node: that node with the leaf's context added in front). */
function replaceLeftmost(tree: Node, nodes: Node[]): Node {
  if (tree.kind === 'prop') {
    if (nodes.length === 1) return withContext(nodes[0] as Node, tree.vars, tree.facts);
    return { kind: 'bundle', vars: tree.vars, facts: tree.facts, children: nodes };
  }
  if (tree.kind === 'block') return { kind: 'block', child: replaceLeftmost(tree.child, nodes) };
  const [first, ...rest] = tree.children;
  if (!first) throw new Fail('INVALID_OPR : No goal is left');
  return { ...tree, children: [replaceLeftmost(first, nodes), ...rest] };
}

function withContext(node: Node, vars: [string, string][], facts: [string, string][]): Node {
  if (node.kind === 'block') return vars.length + facts.length === 0 ? node : { kind: 'bundle', vars, facts, children: [node] };
  return { ...node, vars: [...vars, ...node.vars], facts: [...facts, ...node.facts] };
}

/** Removes the leftmost leaf; bundles left with one child merge into it, empty ones (and their blocks) go. */
function removeLeftmost(tree: Node): Node {
  const remove = (node: Node): Node | undefined => {
    if (node.kind === 'prop') return undefined;
    if (node.kind === 'block') {
      const child = remove(node.child);
      return child ? { kind: 'block', child } : undefined;
    }
    const [first, ...rest] = node.children;
    if (!first) return undefined;
    const kept = remove(first);
    const children = kept ? [kept, ...rest] : rest;
    if (children.length === 0) return undefined;
    if (children.length === 1) return withContext(children[0] as Node, node.vars, node.facts);
    return { ...node, children };
  };
  return remove(tree) ?? { kind: 'bundle', vars: [], facts: [], children: [] };
}

function print(node: Node): Wire {
  const items = (n: { vars: [string, string][]; facts: [string, string][] }): Items => [Object.fromEntries(n.vars), Object.fromEntries(n.facts)];
  switch (node.kind) {
    case 'prop': return [0, items(node), node.goal];
    case 'bundle': return [1, items(node), node.children.map(print)];
    case 'block': return [2, print(node.child)];
  }
}

// --- argument checks ----------------------------------------------------------------------------------------

function tuple(value: unknown, n: number): unknown[] {
  if (!Array.isArray(value) || value.length !== n) throw new Fail(`expected a ${n}-tuple`);
  return value;
}

function string(value: unknown): string {
  if (typeof value !== 'string') throw new Fail('expected a string');
  return value;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Fail('expected a list of strings');
  return value as string[];
}

function optionalInt(value: unknown): number | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Fail('expected an int or nil');
  return value;
}
