import { execFile } from 'node:child_process';
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
  return new Promise((resolveVersion) => {
    execFile(command, [...args], { timeout: timeoutMs, env: env ?? process.env, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const text = `${stdout}\n${stderr}`.split('\n').map((l) => l.trim()).find((l) => l !== '');
      resolveVersion(err && !text ? undefined : text);
    });
  });
}
