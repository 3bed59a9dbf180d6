/**
 * Fingerprints (Schulz, "Fingerprint Indexing for Paramodulation and Rewriting", 2012): the symbols
 * at a few fixed positions of a term. Two terms whose fingerprints are incompatible cannot unify, so
 * comparing eight small integers filters out almost every overlap attempt before `unify` runs.
 */
import type { Term } from './term.ts';

/** A variable at that position. */
const VAR = -1;
/** Below a variable: the position may appear under instantiation. */
const BELOW = -2;
/** The position cannot exist (a function symbol above has too few arguments). */
const NONE = -3;

const POSITIONS: readonly (readonly number[])[] = [[], [0], [1], [2], [0, 0], [0, 1], [1, 0], [1, 1]];
export const FP_LENGTH = POSITIONS.length;

export function fingerprint(t: Term): Int32Array {
  const fp = new Int32Array(FP_LENGTH);
  for (let k = 0; k < FP_LENGTH; k++) {
    let u: Term = t;
    let code = 0;
    for (const i of POSITIONS[k] as number[]) {
      if (u.f < 0) {
        code = BELOW;
        break;
      }
      const a = u.args[i];
      if (!a) {
        code = NONE;
        break;
      }
      u = a;
    }
    fp[k] = code === 0 ? (u.f < 0 ? VAR : u.f) : code;
  }
  return fp;
}

/** False when the two terms certainly do not unify. */
export function unifiableFp(a: Int32Array, b: Int32Array): boolean {
  for (let k = 0; k < FP_LENGTH; k++) {
    const x = a[k] as number;
    const y = b[k] as number;
    if (x === y || x === BELOW || y === BELOW) continue;
    if (x === NONE || y === NONE) return false;
    if (x === VAR || y === VAR) continue;
    return false;
  }
  return true;
}
