import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import { useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-locate) on da8b4fa (a no-break space inside a name is the name's): at a name's edge it is the name's
 * too (`P ` and ` Q` are names of their own to Coq; `Print Term P .` prints `P  = 2`), but the shell answers for
 * another object: `P` (Top.P := 1) and Coq's `Q` (QArith).
 */
const NB = '\u00a0';
describe('queries on names that start or end with a no-break space (attack)', () => {
  it('parseRequest keeps the no-break space at either edge of a name or term', () => {
    expect(parseRequest(`LOCATE ${NB}Q`)).toMatchObject({ command: { name: 'LOCATE', ident: `${NB}Q` } });
    expect(parseRequest(`CHECK P${NB}`)).toMatchObject({ command: { name: 'CHECK', term: `P${NB}` } });
  });

  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('PRINT, ABOUT, LOCATE and CHECK of `P ` answer for `P ` (body 2), never for `P` (body 1) or Coq\'s `Q`', { timeout: 120_000 }, async () => {
    const r = await real.session([
      'PRELUDE bare', `DEFINE "Definition P := 1. Definition P${NB} := 2. Definition ${NB}Q := 3."`,
      `PRINT P${NB}`, `ABOUT P${NB}`, `LOCATE P${NB}`, `CHECK P${NB}`, `LOCATE ${NB}Q`,
    ]);
    expect(r[1]?.ERR).toBe('');
    expect(r[2]?.RESPONSE).toMatchObject({ body: '2' });
    expect(r[3]?.RESPONSE).toMatchObject({ fullName: `Top.P${NB}` });
    expect(r[4]?.RESPONSE).toMatchObject({ results: [{ kind: 'Constant', name: expect.stringMatching(new RegExp(`P${NB}$`)) as unknown }] });
    expect(r[5]?.RESPONSE).toMatchObject({ term: `P${NB}` });
    expect(JSON.stringify(r[6]?.RESPONSE)).not.toMatch(/QArith/);
  });
});
