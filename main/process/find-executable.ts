import { runProcess } from './process-manager.ts';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** The path of an executable named `name` (a path, or a name looked up on PATH), or undefined. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  const candidates = name.includes('/') ? [isAbsolute(name) ? name : resolve(name)] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs `command args` briefly and returns the first non-empty output line (version probes). */
export function probeVersion(command: string, args: readonly string[], timeoutMs = 10_000, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
  return runProcess({ program: command, args, timeoutMs, sandbox: false /* a version probe, no untrusted text */, ...(env ? { env } : {}) }).then((r) => {
    const text = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trim()).find((l) => l !== '');
    return r.exitCode !== 0 && !text ? undefined : text;
  }, () => undefined);
}
