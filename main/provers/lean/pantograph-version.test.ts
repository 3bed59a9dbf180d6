import { describe, expect, it } from 'vitest';
import { MIN_PANTOGRAPH, compareVersions, parsePantographVersion, versionProblem } from './pantograph-version.ts';

describe('Pantograph versions', () => {
  it('reads what `repl --version` prints (the version alone on a line) and nothing else', () => {
    expect(parsePantographVersion('0.3.4\n')).toEqual([0, 3, 4]);
    expect(parsePantographVersion('\n0.3.15\n')).toEqual([0, 3, 15]);
    expect(parsePantographVersion('uncaught exception: Options cannot be parsed')).toBeUndefined();
    expect(parsePantographVersion('ready.')).toBeUndefined();
    // Some builds append the Lean toolchain (leanprover/Pantograph's Version.lean: "0.3.7/v4.21.0").
    expect(parsePantographVersion('0.3.7/v4.21.0\n')).toEqual([0, 3, 7]);
    expect(parsePantographVersion('0.3.7/v4.22.0-rc3')).toEqual([0, 3, 7]);
    expect(parsePantographVersion('0.3.7/ready.')).toBeUndefined();
    expect(compareVersions([0, 3, 10], [0, 3, 4])).toBeGreaterThan(0);
  });

  it('accepts 0.3.4 … 0.3.x; refuses older ones with the reason and the exact fix, and unread majors', () => {
    expect(MIN_PANTOGRAPH).toBe('0.3.4');
    expect(versionProblem([0, 3, 4])).toBeUndefined();
    expect(versionProblem([0, 3, 15])).toBeUndefined();
    expect(versionProblem([0, 3, 0])).toMatch(/^Pantograph 0\.3\.0 is older than 0\.3\.4, the oldest Arbor speaks to \(it does not flush its answers and reports no hasSorry, so a step using sorry would pass\): build Pantograph v0\.3\.4 or a later 0\.3\.x release: `git clone https:\/\/github\.com\/lenianiva\/Pantograph && cd Pantograph && git checkout v0\.3\.4 && lake build repl`/);
    expect(versionProblem([0, 2, 25])).toMatch(/does not flush/);
    expect(versionProblem([0, 3, 3])).toMatch(/^Pantograph 0\.3\.3 is older than 0\.3\.4, .*a tactic's own output reaches its stdout and desynchronises the answers.*ARBOR_PANTOGRAPH/);
    expect(versionProblem([0, 4, 0])).toMatch(/^Pantograph 0\.4\.0 is newer than the 0\.3 series/);
  });
});
