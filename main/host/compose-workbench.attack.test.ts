import { describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/api/api-contract.ts';
import { isTimeoutSeconds } from '../supervisor/compose-backends.ts';
import { workbenchOptions } from './compose-workbench.ts';

/**
 * Attacks on the workbench's composition: a limit Arbor cannot keep — NaN from `--timeout abc`, a negative
 * or zero one, or one past Node's 2^31 ms timers (which then fire at once, so every step answered
 * `timeout`) — never reaches the shell, from the flag (web) or the setting (Electron and web alike).
 */
const settings = (s: Partial<Settings>): Settings => s as Settings;

describe('the workbench composition, attacked', () => {
  it('limits at the edges: the flag\'s if Arbor can keep it, else the setting\'s, else 10 s', () => {
    for (const bad of [Number.NaN, -5, 0, Number.POSITIVE_INFINITY, 3_000_000, 1e12]) {
      expect(isTimeoutSeconds(bad)).toBe(false);
      expect(workbenchOptions(settings({ timeoutSeconds: bad }), null, {}, false).timeoutMs).toBe(10_000);
      expect(workbenchOptions(settings({ timeoutSeconds: 30 }), null, { timeoutMs: bad * 1000 }, false).timeoutMs).toBe(30_000);
    }
    expect(workbenchOptions(settings({ timeoutSeconds: 3600 }), null, {}, false).timeoutMs).toBe(3_600_000);
    expect(workbenchOptions(settings({ timeoutSeconds: 0.5 }), null, { timeoutMs: 2000 }, false).timeoutMs).toBe(2000);
  });

  it('Electron (no flags) and the web (no flags given) compose the same options from the same settings and project', () => {
    const s = settings({ backend: 'eq', timeoutSeconds: 42 });
    const project = { path: '/w/arbor.project.json', backend: 'coq', prelude: 'Require Import Lia.' };
    const electron = workbenchOptions(s, project, { project: () => undefined }, false);
    const web = workbenchOptions(s, project, { project: () => undefined }, false);
    expect({ ...web, project: undefined }).toEqual({ ...electron, project: undefined });
    expect(electron).toMatchObject({ backend: 'coq', timeoutMs: 42_000, projectPrelude: 'Require Import Lia.' });
  });
});
