import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, sep } from 'node:path';

/**
 * How a process that reads untrusted text is contained by the operating system (Linux: bubblewrap).
 * It sees a read-only system (/usr and the few /etc files a prover needs; not /home, not /root, not
 * the rest of /etc), its own working directory, a private /tmp, no network, a fresh PID namespace,
 * and only PATH, HOME (its working directory), LANG/LC_ALL and the variables the caller names.
 */
export interface SandboxOptions {
  /** Host paths the process may read, bound read-only at the same place (a user's load path, a toolchain). */
  readOnly?: readonly string[];
  /** Host paths the process may write, bound read-write at the same place. */
  writable?: readonly string[];
  /** Variables passed through from the process's environment, beyond PATH, LANG and LC_ALL. */
  passEnv?: readonly string[];
}

/** The system's directories a dynamically linked program needs (symlinks on a merged-/usr system). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The /etc entries provers need: the dynamic linker's cache, OCaml's findlib configuration (Coq loads
 * its plugins through it), Debian's alternatives (symlink targets of /usr/bin programs), users and
 * groups by name, time zone, locale aliases. Not the rest of /etc (host keys, shadow files, configs).
 */
const ETC_ENTRIES = ['ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'ocamlfind.conf', 'ocamlfind.conf.d', 'alternatives', 'passwd', 'group', 'nsswitch.conf', 'localtime', 'locale.alias', 'xdg/coq'];

const ENV_ALWAYS = ['PATH', 'LANG', 'LC_ALL'];

/** Set inside every sandbox (bwrap cannot nest here: it cannot mount /proc inside another one). */
export const IN_SANDBOX = 'ARBOR_IN_SANDBOX';

export interface SandboxSpec {
  program: string;
  args: readonly string[];
  /** The working directory (bound read-write when `cwdWritable`, else read-only). */
  cwd: string;
  cwdWritable: boolean;
  env: NodeJS.ProcessEnv;
  options: SandboxOptions;
}

/** bubblewrap's arguments that run `spec.program` contained (the caller runs `bwrap` with them). */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const link = symlinkTarget(dir);
    if (link !== undefined) out.push('--symlink', link, dir);
    else if (existsSync(dir)) out.push('--ro-bind', dir, dir);
  }
  for (const entry of ETC_ENTRIES) {
    const path = join('/etc', entry);
    if (existsSync(path)) out.push('--ro-bind', path, path);
  }
  // Pseudo file systems of its own; /tmp is private (a tmpfs gone with the sandbox).
  out.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // Binds nest: a parent before what lies under it (the working directory usually lies under /tmp).
  const binds: { path: string; writable: boolean }[] = [
    ...(spec.options.readOnly ?? []).map((path) => ({ path, writable: false })),
    ...(spec.options.writable ?? []).map((path) => ({ path, writable: true })),
    ...programDir(spec.program).map((path) => ({ path, writable: false })),
    { path: spec.cwd, writable: spec.cwdWritable },
  ];
  const seen = new Set<string>();
  for (const b of binds.sort((a, c) => depth(a.path) - depth(c.path))) {
    const key = `${b.writable ? 'w' : 'r'}${b.path}`;
    if (seen.has(key) || !existsSync(b.path)) continue;
    seen.add(key);
    out.push(b.writable ? '--bind' : '--ro-bind', b.path, b.path);
  }
  out.push('--chdir', spec.cwd);
  // No network, no IPC, own PID/UTS namespaces; killed with Arbor. No --new-session: the process
  // already leads a session of its own without a terminal (the process manager starts it detached),
  // and a new session would take it out of the process group Arbor signals.
  out.push('--unshare-all', '--die-with-parent', '--clearenv');
  // ARBOR_IN_SANDBOX: an Arbor inside (an external arbor-shell) knows its provers are contained already.
  const env: Record<string, string> = { HOME: spec.cwdWritable ? spec.cwd : '/tmp', TMPDIR: '/tmp', [IN_SANDBOX]: '1' };
  for (const name of [...ENV_ALWAYS, ...(spec.options.passEnv ?? [])]) {
    const value = spec.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.LANG ??= 'C.UTF-8';
  for (const [name, value] of Object.entries(env)) out.push('--setenv', name, value);
  out.push('--', realProgram(spec.program), ...spec.args);
  return out;
}

function symlinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** An absolute program by its real path (a symlink elsewhere would not exist inside). */
function realProgram(program: string): string {
  if (!isAbsolute(program)) return program;
  try {
    return realpathSync(program);
  } catch {
    return program;
  }
}

/** A program outside the system directories (a user's own build of E, a toolchain): its directory, read-only. */
function programDir(program: string): string[] {
  if (!isAbsolute(program)) return [];
  let real: string;
  try {
    real = realpathSync(program);
  } catch {
    return [];
  }
  return SYSTEM_DIRS.some((d) => real.startsWith(`${d}${sep}`)) ? [] : [dirname(real)];
}

const depth = (path: string): number => path.split(sep).filter(Boolean).length;
