/**
 * The AIMLEAP advisor wire format (as `src/aimleap.ml` implements it, which is what real peers
 * speak). Terms: 1 i (variable), 2 + 64 ASCII hex chars (Skolem constant), 3 (e), 4/5/6 (* \ /),
 * 7 a, 8 K, 9 T, 10 L, 11 R, arguments following in order. Floats: two bytes b1 b2 meaning
 * (b1*256+b2)/1000. Messages to the advisor:
 *   0 m n               goal pair; reply: count (0-255), then that many terms (middle-term suggestions).
 *                       AIMLEAP reads the terms only when m and n share no variable (else it reads
 *                       nothing more, so an advisor must answer 0), and drops terms with variables.
 *   1 vbd m n sd        state; sd = 0 (root) | 1 b len pos...; no reply
 *   2 i                 distance if the cursor moves to child i (at the root: 1 = left side, 2 = right); reply: 2 b1 b2
 *   3 b name m1 n1      distance if rewriting with `name` (b: left to right) gives m1 =? n1; reply: 2 b1 b2
 *   4 mask[177]         options 0-2 cursor moves, 2n+3 / 2n+4 equation n left-to-right / right-to-left
 *                       (n by name, see advisor-slots.ts); reply: 3 then one float per set option, in slot order
 * Skolem constants are AIMLEAP's own hashes of the goal (aimleap-hash.ts), mapped by `SkolemNames`.
 */
import { constantHex } from './aimleap-hash.ts';
import { OPTION_SLOTS } from './advisor-slots.ts';
import { FIRST_CONSTANT, SYM, type Term, type TermBank, varIndex } from './term.ts';

export { OPTION_SLOTS };

const TAG: Record<number, number> = { [SYM.e]: 3, [SYM.mul]: 4, [SYM.ldiv]: 5, [SYM.rdiv]: 6, [SYM.a]: 7, [SYM.K]: 8, [SYM.T]: 9, [SYM.L]: 10, [SYM.R]: 11 };
const FROM_TAG = new Map(Object.entries(TAG).map(([f, tag]) => [tag, Number(f)]));

/**
 * How constants cross the wire: a goal's constants as AIMLEAP's Skolem hashes of that goal
 * (`aimleapSkolems`), and back — a hash the table knows becomes the goal's own constant again, so a
 * middle term from an advisor is a term over the goal's constants. Without a table (the advisor
 * side) a constant is named by its hash.
 */
export class SkolemNames {
  private readonly back = new Map<string, string>();
  constructor(private readonly hexOfName: ReadonlyMap<string, string> = new Map()) {
    for (const [name, hex] of hexOfName) this.back.set(hex, name);
  }
  hexOf(name: string): string {
    return this.hexOfName.get(name) ?? constantHex(name);
  }
  /** The constant's name for a received hash: the goal's own name, or the hash itself. */
  nameOf(hex: string): string {
    return this.back.get(hex) ?? hex;
  }
  /** Whether the hash is one of the goal's constants. */
  knows(hex: string): boolean {
    return this.back.has(hex);
  }
}

export const HASH_NAMES = new SkolemNames();

export function encodeTerm(bank: TermBank, t: Term, out: number[], names: SkolemNames = HASH_NAMES): void {
  if (t.f < 0) {
    const i = varIndex(t);
    if (i > 255) throw new Error('variable index above 255');
    out.push(1, i);
    return;
  }
  if (t.f >= FIRST_CONSTANT) {
    out.push(2);
    for (const c of names.hexOf(bank.symbolName(t.f))) out.push(c.charCodeAt(0));
    return;
  }
  out.push(TAG[t.f] as number);
  for (const a of t.args) encodeTerm(bank, a, out, names);
}

export const encodeFloat = (x: number): [number, number] => {
  const v = Math.max(0, Math.min(65535, Math.round(x * 1000)));
  return [v >> 8, v & 255];
};
export const decodeFloat = (b1: number, b2: number): number => (b1 * 256 + b2) / 1000;

/** Thrown by `ByteReader` when the buffer ends inside a message (wait for more bytes). */
export class Incomplete extends Error {}
export class Malformed extends Error {}

export class ByteReader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.pos >= this.bytes.length) throw new Incomplete('need more bytes');
    return this.bytes[this.pos++] as number;
  }
  term(bank: TermBank, names: SkolemNames = HASH_NAMES, depth = 0): Term {
    if (depth > 10_000) throw new Malformed('term too deep');
    const tag = this.byte();
    if (tag === 1) return bank.v(this.byte());
    if (tag === 2) {
      let hex = '';
      for (let i = 0; i < 64; i++) hex += String.fromCharCode(this.byte());
      if (!/^[0-9A-Fa-f]{64}$/.test(hex)) throw new Malformed('Skolem constant is not 64 hex characters');
      return bank.const(names.nameOf(hex.toLowerCase()));
    }
    const f = FROM_TAG.get(tag);
    if (f === undefined) throw new Malformed(`unknown term tag ${tag}`);
    const args: Term[] = [];
    for (let k = 0; k < bank.arity(f); k++) args.push(this.term(bank, names, depth + 1));
    return bank.app(f, args);
  }
}

export type AdvisorRequest =
  | { kind: 0; m: Term; n: Term }
  | { kind: 1; vbd: number; m: Term; n: Term; cursor?: { left: boolean; pos: number[] } }
  | { kind: 2; child: number }
  | { kind: 3; leftToRight: boolean; name: string; m: Term; n: Term }
  | { kind: 4; mask: number[] };

export function encodeRequest(bank: TermBank, r: AdvisorRequest, names: SkolemNames = HASH_NAMES): Uint8Array {
  const out: number[] = [r.kind];
  switch (r.kind) {
    case 0:
      encodeTerm(bank, r.m, out, names);
      encodeTerm(bank, r.n, out, names);
      break;
    case 1:
      out.push(r.vbd & 255);
      encodeTerm(bank, r.m, out, names);
      encodeTerm(bank, r.n, out, names);
      if (!r.cursor) out.push(0);
      else out.push(1, r.cursor.left ? 1 : 0, r.cursor.pos.length, ...r.cursor.pos);
      break;
    case 2:
      out.push(r.child);
      break;
    case 3:
      out.push(r.leftToRight ? 1 : 0, r.name.length, ...[...r.name].map((c) => c.charCodeAt(0) & 255));
      encodeTerm(bank, r.m, out, names);
      encodeTerm(bank, r.n, out, names);
      break;
    case 4:
      if (r.mask.length !== OPTION_SLOTS) throw new Error('option mask must have 177 entries');
      out.push(...r.mask.map((b) => (b ? 1 : 0)));
      break;
  }
  return Uint8Array.from(out);
}

/** Decodes one request; throws `Incomplete` if the bytes end early, `Malformed` on nonsense. */
export function decodeRequest(bank: TermBank, reader: ByteReader, names: SkolemNames = HASH_NAMES): AdvisorRequest {
  const kind = reader.byte();
  switch (kind) {
    case 0:
      return { kind, m: reader.term(bank, names), n: reader.term(bank, names) };
    case 1: {
      const vbd = reader.byte();
      const m = reader.term(bank, names);
      const n = reader.term(bank, names);
      const sd = reader.byte();
      if (sd === 0) return { kind, vbd, m, n };
      if (sd !== 1) throw new Malformed('bad cursor flag');
      const left = reader.byte() === 1;
      const len = reader.byte();
      const pos: number[] = [];
      for (let i = 0; i < len; i++) pos.push(reader.byte());
      return { kind, vbd, m, n, cursor: { left, pos } };
    }
    case 2:
      return { kind, child: reader.byte() };
    case 3: {
      const leftToRight = reader.byte() === 1;
      const len = reader.byte();
      let name = '';
      for (let i = 0; i < len; i++) name += String.fromCharCode(reader.byte());
      return { kind, leftToRight, name, m: reader.term(bank, names), n: reader.term(bank, names) };
    }
    case 4: {
      const mask: number[] = [];
      for (let i = 0; i < OPTION_SLOTS; i++) mask.push(reader.byte());
      return { kind, mask };
    }
    default:
      throw new Malformed(`unknown message ${kind}`);
  }
}
