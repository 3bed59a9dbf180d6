/**
 * Which Pantograph versions Arbor speaks to, and why (read from `lenianiva/Pantograph`, tags v0.2.25 … v0.3.4):
 * - v0.3.0 and older print with `IO.println` and never flush stdout (`Main.lean`; `printImmediate` arrives
 *   in v0.3.1): through a pipe, `ready.` and answers sit in Lean's buffer;
 * - before v0.3.1 a failed tactic answers `tacticErrors` and there is no `hasSorry`/`hasUnsafe`, so
 *   `APPLY sorry` would look like a proof; elaboration errors could also become `sorry` (`errToSorry`);
 * - before v0.3.4 whatever a tactic prints goes to the REPL's stdout, ahead of the JSON answer, and
 *   desynchronises a line reader (`Repl.lean` isolates it with `IO.FS.withIsolatedStreams` from v0.3.4);
 * - v0.3.3 makes `goalId` optional and adds `autoResume` and `fragment`; v0.3.4 sends `messages` as
 *   Lean's message objects.
 * So the oldest version Arbor accepts is 0.3.4. Later 0.3.x releases are accepted on the strength of the
 * newest client, PyPantograph 0.3.15, which expects the same shapes; a 0.4 or later is refused until read.
 */
export const MIN_PANTOGRAPH = '0.3.4';
export const PANTOGRAPH_BELOW = '0.4.0';

export type Version = [number, number, number];

/**
 * Pantograph's `--version` prints `Pantograph.version` alone on a line (`Main.lean`: `IO.println s!"{Pantograph.version}"`):
 * `0.3.4` at tag v0.3.4, but some later builds append the Lean toolchain (`0.3.7/v4.21.0` in
 * `leanprover/Pantograph`'s `Pantograph/Version.lean`), so a `/…` suffix is allowed and ignored.
 */
export function parsePantographVersion(output: string): Version | undefined {
  const first = output.split('\n').map((l) => l.trim()).find((l) => l !== '');
  const m = first === undefined ? null : /^v?(\d+)\.(\d+)\.(\d+)(?:\/v?\d+\.\d+\.\d+[\w.+-]*)?$/.exec(first);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

const asVersion = (text: string): Version => parsePantographVersion(text) as Version;
export const formatVersion = (v: Version): string => v.join('.');

/** How to get a supported Pantograph, said the same way everywhere. */
export const PANTOGRAPH_FIX = `build Pantograph v${MIN_PANTOGRAPH} or a later 0.3.x release: \`git clone https://github.com/lenianiva/Pantograph && cd Pantograph && git checkout v${MIN_PANTOGRAPH} && lake build repl\` (elan installs the Lean version its lean-toolchain names, v4.21.0 for v${MIN_PANTOGRAPH}), then set ARBOR_PANTOGRAPH to the absolute path of .lake/build/bin/repl (or the Provers page's Pantograph command)`;

/** Why this version is refused (with the exact fix), or undefined when Arbor speaks to it. */
export function versionProblem(version: Version): string | undefined {
  const shown = formatVersion(version);
  if (compareVersions(version, asVersion(MIN_PANTOGRAPH)) < 0) {
    return `Pantograph ${shown} is older than ${MIN_PANTOGRAPH}, the oldest Arbor speaks to (${whyOld(version)}): ${PANTOGRAPH_FIX}`;
  }
  if (compareVersions(version, asVersion(PANTOGRAPH_BELOW)) >= 0) {
    return `Pantograph ${shown} is newer than the 0.3 series Arbor was built against (${MIN_PANTOGRAPH} … 0.3.x); its protocol has not been read: ${PANTOGRAPH_FIX}`;
  }
  return undefined;
}

function whyOld(version: Version): string {
  if (compareVersions(version, [0, 3, 1]) < 0) return 'it does not flush its answers and reports no hasSorry, so a step using sorry would pass';
  if (compareVersions(version, [0, 3, 4]) < 0) return "a tactic's own output reaches its stdout and desynchronises the answers";
  return 'its protocol differs';
}
