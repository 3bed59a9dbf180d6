/**
 * LEAN TOOLCHAIN TEST DOUBLE, never used by the product: the two things of a Lean toolchain that
 * Pantograph's repl touches at start-up, for machines where Lean cannot be installed.
 *  - `bin/lean`: answers `--print-prefix` with the toolchain's directory (what `Lean.findSysroot` runs,
 *    `src/Lean/Util/Path.lean` of leanprover/lean4) and `--version` the way Lean prints it; anything
 *    else is refused (it is not a Lean).
 *  - `lib/lean/Init.olean`: a toy `.olean` whose header names the toolchain, so that the Pantograph double
 *    can refuse a library of another Lean version the way Lean does ("incompatible header").
 * The Pantograph double finds it through `LEAN_SYSROOT` (as the real repl does) or `lean` on PATH.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The toolchain Pantograph v0.3.4 is built with (its `lean-toolchain`: `leanprover/lean4:v4.21.0`). */
export const DOUBLE_TOOLCHAIN = 'v4.21.0';

export interface LeanToolchainDouble {
  /** The toolchain's directory (what `lean --print-prefix` prints; a value for LEAN_SYSROOT). */
  dir: string;
  /** Its `bin` directory (to put on PATH). */
  bin: string;
  remove(): Promise<void>;
}

/**
 * A toolchain directory for `toolchain` (`v4.21.0`), under the repository's ignored `.tmp/`: the tests' sandboxed
 * processes may read the repository (vitest.config.ts), not the host's /tmp (theirs is private).
 */
export async function makeLeanToolchain(toolchain = DOUBLE_TOOLCHAIN): Promise<LeanToolchainDouble> {
  const parent = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(join(parent, 'arbor-lean-toolchain-'));
  const bin = join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  await mkdir(join(dir, 'lib', 'lean'), { recursive: true });
  await writeFile(join(dir, 'lib', 'lean', 'Init.olean'), leanOleanHeader(toolchain));
  const version = toolchain.replace(/^v/, '');
  const script = [
    '#!/bin/sh',
    `if [ "$1" = "--print-prefix" ]; then echo '${dir}'; exit 0; fi`,
    `if [ "$1" = "--version" ]; then echo 'Lean (version ${version}, x86_64-unknown-linux-gnu, commit 0000000000000000000000000000000000000000, Release)'; exit 0; fi`,
    'echo "lean toolchain test double: only --print-prefix and --version are modelled" >&2',
    'exit 1',
    '',
  ].join('\n');
  await writeFile(join(bin, 'lean'), script);
  await chmod(join(bin, 'lean'), 0o755);
  return { dir, bin, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The toy header: Lean's `.olean` starts with `olean`, a format version and the githash of the Lean that wrote it. */
export function leanOleanHeader(toolchain: string): string {
  return `olean\n${toolchain}\n`;
}

/**
 * Sets LEAN_SYSROOT of this test process (each vitest file runs in its own) to a fresh toolchain double,
 * so the Pantograph double starts; returns the toolchain for removal after the tests.
 */
export async function useLeanToolchainDouble(toolchain = DOUBLE_TOOLCHAIN): Promise<LeanToolchainDouble> {
  const t = await makeLeanToolchain(toolchain);
  process.env.LEAN_SYSROOT = t.dir;
  return t;
}
