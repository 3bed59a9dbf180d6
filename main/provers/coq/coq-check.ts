import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runProcess } from '../../process/process-manager.ts';
import type { BackendCheck } from '../../shell/prover-session.ts';
import { findOnPath, HAMMER_LIBEXEC, resolveCoqidetop } from './coqidetop-client.ts';
import { arborPluginDir } from './arbor-plugin.ts';

/** A short probe through the process manager (fixed arguments, no untrusted text: not sandboxed); rejects on failure like execFile did. */
const run = async (program: string, args: string[], options: { timeout: number }): Promise<{ stdout: string }> => {
  const r = await runProcess({ program, args, timeoutMs: options.timeout, sandbox: false });
  if (r.exitCode !== 0) throw new Error(r.timedOut ? `${program} timed out` : (r.stderr.trim() || `${program} exited with ${r.exitCode}`));
  return { stdout: r.stdout };
};
const FIX = 'apt-get install coq libcoq-hammer eprover z3 cvc4';

/**
 * The binaries CoqHammer itself looks for (its provers.ml): Z3 only through the `z3_tptp` front end,
 * which Debian's z3 package does not ship, so on Debian CoqHammer uses E and CVC4.
 */
export const HAMMER_ATPS: { name: string; binary: string }[] = [
  { name: 'E', binary: 'eprover' },
  { name: 'Vampire', binary: 'vampire' },
  { name: 'Z3', binary: 'z3_tptp' },
  { name: 'CVC4', binary: 'cvc4' },
];

export const checkCoq = async (): Promise<BackendCheck> => {
  const details: string[] = [];
  const problems: string[] = [];
  const top = resolveCoqidetop();
  if (!top) {
    problems.push(`coqidetop not found on PATH; fix: ${FIX}`);
    return { backend: 'coq', available: false, details, problems };
  }
  const version = await run(top, ['-v'], { timeout: 10_000 }).then(
    (r) => r.stdout.split('\n')[0]?.trim() ?? '',
    (e: Error) => `unknown (${e.message})`,
  );
  details.push(`coqidetop: ${top} (${version})`);
  const where = await run('coqc', ['-where'], { timeout: 10_000 }).then((r) => r.stdout.trim(), () => '');
  const hammerVo = where && join(where, 'user-contrib', 'Hammer', 'Plugin', 'Hammer.vo');
  const path = `${HAMMER_LIBEXEC}${delimiter}${process.env.PATH ?? ''}`;
  const helpers = ['htimeout', 'predict'].filter((b) => !findOnPath([b], path));
  if (!hammerVo || !existsSync(hammerVo)) problems.push(`CoqHammer not found (Hammer.Plugin.Hammer); fix: ${FIX}`);
  else if (helpers.length > 0) problems.push(`CoqHammer helpers missing (${helpers.join(', ')}); fix: ${FIX}`);
  else details.push(`CoqHammer: ${join(where, 'user-contrib', 'Hammer')}`);
  const atps = HAMMER_ATPS.map((a) => ({ ...a, path: findOnPath([a.binary]) }));
  const usable = atps.filter((a) => a.path);
  details.push(`ATPs CoqHammer can use: ${usable.map((a) => `${a.name} (${a.path ?? ''})`).join(', ') || 'none'}`);
  const missing = atps.filter((a) => !a.path).map((a) => `${a.name} (${a.binary})`);
  if (missing.length > 0) details.push(`not available to CoqHammer: ${missing.join(', ')}`);
  if (findOnPath(['z3']) && !findOnPath(['z3_tptp'])) details.push('z3 is installed, but CoqHammer calls it only as z3_tptp, which this system lacks');
  // Without the plugin every END walks the theorem's whole closure (docs/arbor-plugin.md): correct, slower.
  const plugin = arborPluginDir();
  if (plugin !== undefined) details.push(`Arbor's Coq plugin: ${plugin}`);
  else problems.push("Arbor's Coq plugin is not built: END judges assumptions with Coq's Print Assumptions alone (slower); fix: apt-get install libcoq-core-ocaml-dev && bash coq-plugin/build.sh");
  if (usable.length === 0) problems.push(`no ATP for CoqHammer's hammer (sauto-style quick tactics still work); fix: ${FIX}`);
  return { backend: 'coq', available: problems.every((p) => !p.startsWith('coqidetop')), details, problems };
};
