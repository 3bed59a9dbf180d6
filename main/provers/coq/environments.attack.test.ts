import { describe, expect, it } from 'vitest';
import { environmentPrelude, environmentProblem } from './environments.ts';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';

/** Attacks on PRELUDE environment names: odd names are refused by name, never turned into prelude text. */
describe('PRELUDE environment names (attack)', () => {
  it('names of Object.prototype are unknown environments, not library sets', () => {
    for (const name of ['toString', 'constructor', 'hasOwnProperty', 'valueOf', 'arith,toString']) {
      expect(environmentProblem(name), name).toMatch(/unknown environment/);
    }
  });

  it('a prelude never holds anything but the known library sets', () => {
    const text = environmentPrelude('arith,lists');
    expect(text).toContain('From Coq Require Import Arith.');
    expect(text).toContain('Import ListNotations.');
    expect(text).not.toMatch(/function|native code|undefined/);
  });

  it('the request syntax keeps names to identifiers: no comments, quotes or dots reach the prelude', () => {
    for (const line of ['PRELUDE __proto__*)', 'PRELUDE arith,', 'PRELUDE ar.ith', 'PRELUDE (*x*)']) {
      expect(parseRequest(line), line).toHaveProperty('error');
    }
  });
});
