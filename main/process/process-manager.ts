import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import type { SandboxStatus } from '../../shared/settings/sandbox-status.ts';
import { listProcesses } from './process-tree.ts';
import { bwrapArgs, IN_SANDBOX, type SandboxOptions } from './sandbox.ts';

/**
 * The one owner of every process Arbor starts (provers, ATP runs, `coqc`, E, Pantograph, external
 * shells, builds). Each process:
 * - runs in a process group of its own, so a kill reaches what it forked (CoqHammer's ATP workers);
 * - runs in a temporary working directory of its own (`.lia.cache` and friends land there), removed
 *   when it ends — unless the caller names a directory;
 * - may get an address-space cap (`prlimit --as`), so one runaway prover cannot take the machine;
 * - runs sandboxed unless the caller says otherwise (`sandbox: false`, for Arbor's own programs and
 *   probes that read no untrusted text): bubblewrap, see `sandbox.ts`; where bwrap is missing or fails,
 *   or ARBOR_SANDBOX=off, it runs plain and `sandboxStatus()` says so;
 * - dies with Arbor: on a normal exit every group is killed; if Arbor itself is killed (even SIGKILL),
 *   a small reaper — a shell reading Arbor's list of groups on a pipe, started with `--pdeathsig` — sees
 *   the pipe close and kills them all.
 * Programs come from a fixed list or the user's own settings/environment, never from untrusted input
 * (callers pass a program; nothing here reads protocol text).
 */

export interface ProcessOptions {
  /** The program to run (a name on PATH or an absolute path). */
  program: string;
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Working directory; by default a fresh temporary directory, removed when the process ends. */
  cwd?: string;
  /** Address-space cap in MB (Linux, `prlimit --as`); absent: none. */
  memoryLimitMb?: number;
  /**
   * Contain it (the default: whatever reads untrusted text must be): a read-only system, its working
   * directory (read-write when it is its own; a caller-named `cwd` read-only unless listed in `writable`),
   * a private /tmp, no network, a minimal environment; plus the host paths given here. `false`: Arbor's
   * own programs (workers, builds) and version probes, which read no untrusted text.
   */
  sandbox?: SandboxOptions | false;
}

export interface ManagedProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves once the process has exited (its group killed and its working directory removed). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether it is still running. */
  readonly alive: boolean;
  /** A signal to the whole group (SIGINT interrupts a prover's current call). */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL to the whole group. */
  kill(): void;
  /** The raw child, for `on('error')` and friends. */
  readonly child: ChildProcess;
  /** Whether it runs inside the sandbox (bwrap is then its group's leader). */
  readonly sandboxed: boolean;
}

const linux = process.platform === 'linux';
const have = (tool: string): boolean => linux && ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].some((d) => existsSync(join(d, tool)));
const HAVE_PRLIMIT = have('prlimit');
const HAVE_SETPRIV = have('setpriv');

/** Every live group Arbor started, by process-group id. */
const live = new Map<number, ChildProcess>();

/** Starts a long-running process with pipes (a prover, a REPL, an external shell). */
export function startProcess(options: ProcessOptions): ManagedProcess {
  const own = options.cwd === undefined ? mkdtempSync(join(tmpdir(), 'arbor-proc-')) : undefined;
  const cwd = options.cwd ?? (own as string);
  const { program, args, sandboxed } = commandLine(options, cwd, own !== undefined);
  const child = spawn(program, args, {
    cwd,
    env: options.env ?? process.env,
    stdio: 'pipe',
    detached: true, // its own process group: group signals reach what it forks
  });
  const pgid = child.pid;
  if (pgid !== undefined) track(pgid, child);
  let alive = pgid !== undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null): void => {
      alive = false;
      if (pgid !== undefined) {
        // What it forked dies with it (ATP workers left behind by a killed prover, for instance).
        signalGroup(pgid, 'SIGKILL');
        untrack(pgid);
      }
      if (own) rmSync(own, { recursive: true, force: true });
      resolve({ code, signal });
    };
    child.once('exit', done);
    child.once('error', () => done(null, null));
  });
  return {
    pid: pgid,
    stdin: child.stdin as Writable,
    stdout: child.stdout as Readable,
    stderr: child.stderr as Readable,
    exited,
    get alive() {
      return alive;
    },
    signal: (s) => {
      if (pgid === undefined || !alive) return;
      if (sandboxed && s !== 'SIGKILL') signalInside(pgid, s);
      else signalGroup(pgid, s);
    },
    kill: () => {
      if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
    },
    child,
    sandboxed,
  };
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a program to completion (coqc, a version probe, a build) under the same rules, with a time limit. */
export async function runProcess(options: ProcessOptions & { input?: string; timeoutMs: number }): Promise<RunResult> {
  const own = options.cwd === undefined ? mkdtempSync(join(tmpdir(), 'arbor-proc-')) : undefined;
  const cwd = options.cwd ?? (own as string);
  const { program, args } = commandLine(options, cwd, own !== undefined);
  const sub = execa(program, args, {
    cwd,
    env: options.env ?? process.env,
    extendEnv: false,
    detached: true,
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
  });
  const pgid = sub.pid;
  if (pgid !== undefined) track(pgid, sub);
  // execa's timeout kills only the program, and waits for its pipes to close: what it forked and that holds
  // them (CoqHammer's ATPs) would run on to its own end. At the limit the whole group goes.
  let groupKilled = false;
  const limit = setTimeout(() => {
    groupKilled = true;
    if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
  }, options.timeoutMs);
  try {
    const r = await sub;
    return { exitCode: r.exitCode ?? null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), timedOut: r.timedOut === true || groupKilled };
  } finally {
    clearTimeout(limit);
    if (pgid !== undefined) {
      signalGroup(pgid, 'SIGKILL');
      untrack(pgid);
    }
    if (own) rmSync(own, { recursive: true, force: true });
  }
}

/** Groups still running (for tests and the channels panel). */
export function liveProcessGroups(): number[] {
  return [...live.keys()];
}

/** Kills every group Arbor started (on exit; the reaper does the same if Arbor dies without running this). */
export function killAllProcesses(): void {
  for (const pgid of live.keys()) signalGroup(pgid, 'SIGKILL');
  live.clear();
}

/** The command line that runs `options.program`: inside bwrap when sandboxed, under prlimit when capped. */
function commandLine(options: ProcessOptions, cwd: string, ownCwd: boolean): { program: string; args: string[]; sandboxed: boolean } {
  let program = options.program;
  let args = [...(options.args ?? [])];
  const status = options.sandbox === false ? undefined : sandboxStatus();
  const found = status?.state === 'on' && status.inherited !== true ? resolve(program, cwd, options.env ?? process.env) : undefined;
  const sandboxed = found !== undefined;
  if (found !== undefined) {
    // By its host path: a program found in a directory outside the system's is then bound (read-only).
    program = found;
    const given = options.sandbox === undefined || options.sandbox === false ? {} : options.sandbox;
    const sandbox = { ...given, readOnly: [...(given.readOnly ?? []), ...userReadPaths()], passEnv: [...(given.passEnv ?? []), ...userEnvNames()] };
    const cwdWritable = ownCwd || (sandbox.writable ?? []).includes(cwd);
    args = bwrapArgs({ program, args, cwd, cwdWritable, env: options.env ?? process.env, options: sandbox });
    program = BWRAP;
  }
  // prlimit execs what follows, so the cap holds for bwrap and, inherited, for the prover inside.
  if (options.memoryLimitMb !== undefined && HAVE_PRLIMIT) {
    return { program: 'prlimit', args: [`--as=${Math.round(options.memoryLimitMb) * 1024 * 1024}`, '--', program, ...args], sandboxed };
  }
  return { program, args, sandboxed };
}

/**
 * The program's absolute path (as given, or found on the process's PATH). One that does not exist is
 * spawned as it is, so the caller sees the usual ENOENT ("cannot start …") rather than bwrap's exit status.
 */
function resolve(program: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (isAbsolute(program)) return existsSync(program) ? program : undefined;
  if (program.includes('/')) return existsSync(join(cwd, program)) ? join(cwd, program) : undefined;
  return (env.PATH ?? '').split(delimiter).filter((dir) => isAbsolute(dir)).map((dir) => join(dir, program)).find((p) => existsSync(p));
}

/** ARBOR_SANDBOX_ENV: names of variables (comma-separated) the user passes into every sandbox, e.g. OCAMLRUNPARAM. */
function userEnvNames(): string[] {
  return (process.env.ARBOR_SANDBOX_ENV ?? '').split(',').map((n) => n.trim()).filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
}

/** ARBOR_SANDBOX_READ: host paths (PATH-style list) the user lets every sandboxed prover read, e.g. a toolchain. */
function userReadPaths(): string[] {
  return (process.env.ARBOR_SANDBOX_READ ?? '').split(delimiter).filter((p) => isAbsolute(p));
}

// ---- whether the sandbox works here: probed once, with the same command line provers get ----

const BWRAP = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'].find((p) => linux && existsSync(p)) ?? 'bwrap';
let status: SandboxStatus | undefined;

/** `on`, `off` (ARBOR_SANDBOX=off) or `unavailable` (and why); probed on first use, then kept. */
export function sandboxStatus(): SandboxStatus {
  status ??= probeSandbox();
  return status;
}

/**
 * ARBOR_IN_SANDBOX is believed only inside a PID namespace that bwrap leads (there, bwrap is process 1): a
 * variable left in a user's environment, or set by anyone who starts Arbor, never switches containment off.
 */
function insideBwrap(): boolean {
  try {
    return linux && readFileSync('/proc/1/comm', 'utf8').trim() === 'bwrap';
  } catch {
    return false;
  }
}

function probeSandbox(): SandboxStatus {
  const setting = process.env.ARBOR_SANDBOX?.trim().toLowerCase();
  if (setting === 'off' || setting === '0' || setting === 'false') return { state: 'off', detail: `turned off by ARBOR_SANDBOX=${process.env.ARBOR_SANDBOX ?? ''}` };
  if (process.env[IN_SANDBOX] === '1' && insideBwrap()) return { state: 'on', detail: 'inherited: this process runs inside Arbor\'s sandbox already', inherited: true };
  if (!linux) return { state: 'unavailable', detail: `bubblewrap is Linux-only; this is ${process.platform}` };
  if (!existsSync(BWRAP)) return { state: 'unavailable', detail: 'bwrap not found; fix: apt-get install bubblewrap' };
  // The probe is the sandbox itself running `true`: a kernel without unprivileged user namespaces fails here.
  const r = spawnSync(BWRAP, bwrapArgs({ program: 'true', args: [], cwd: tmpdir(), cwdWritable: false, env: process.env, options: {} }), { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return { state: 'on', detail: `bubblewrap, ${BWRAP}` };
  const why = r.error?.message ?? (r.stderr.trim().split('\n')[0] || `exit ${String(r.status ?? r.signal)}`);
  return { state: 'unavailable', detail: `${BWRAP} fails here: ${why}` };
}

/**
 * A signal other than SIGKILL (SIGINT: interrupt a prover's call) to the sandboxed processes of a group,
 * not to bwrap itself: bwrap does not pass signals on and would die of SIGINT, taking the sandbox with it.
 */
function signalInside(pgid: number, signal: NodeJS.Signals): void {
  for (const p of listProcesses()) {
    if (p.pgid !== pgid || p.name === 'bwrap') continue;
    try {
      process.kill(p.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

// ---- the reaper: kills Arbor's groups when Arbor dies without cleaning up ----

const REAPER_SCRIPT = [
  'groups=""',
  'cleanup() { for g in $groups; do kill -KILL -"$g" 2>/dev/null; done; exit 0; }',
  'trap cleanup TERM HUP INT',
  'while IFS= read -r line; do',
  '  case "$line" in',
  '    +*) groups="$groups ${line#+}" ;;',
  '    -*) n="${line#-}"; kept=""; for g in $groups; do [ "$g" = "$n" ] || kept="$kept $g"; done; groups="$kept" ;;',
  '  esac',
  'done',
  'cleanup',
].join('\n');

let reaper: ChildProcess | undefined;
let exitHookInstalled = false;

function reaperInput(): Writable | undefined {
  if (!linux) return undefined;
  if (!reaper || reaper.exitCode !== null || reaper.signalCode !== null) {
    const [program, args] = HAVE_SETPRIV ? ['setpriv', ['--pdeathsig', 'TERM', '--', 'sh', '-c', REAPER_SCRIPT]] : ['sh', ['-c', REAPER_SCRIPT]];
    const r = spawn(program, args, { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    r.on('error', () => undefined);
    r.stdin?.on('error', () => undefined);
    // The reaper must not keep Arbor alive.
    r.unref();
    (r.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    reaper = r;
  }
  return reaper.stdin ?? undefined;
}

function track(pgid: number, child: ChildProcess): void {
  live.set(pgid, child);
  reaperInput()?.write(`+${pgid}\n`);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killAllProcesses);
  }
}

function untrack(pgid: number): void {
  if (!live.delete(pgid)) return;
  reaper?.stdin?.write(`-${pgid}\n`);
}
