/**
 * The option slots of AIMLEAP's batch request (message 4). AIMLEAP numbers equations by *name*
 * (its `eqnindh` table in `src/aimleap.ml`), not by their place in the problem file: the 87
 * equations of the AIM preamble are 0-86 below, and any other equation (a lemma proved on the way,
 * a user's `HAVE`) has no slot and is simply left out of the mask. Slots 0-2 move the cursor to
 * argument 1-3; 2n+3 rewrites with equation n left to right, 2n+4 right to left.
 */
import type { Direction } from './proof.ts';

export const OPTION_SLOTS = 177;

export const AIMLEAP_EQUATIONS: readonly string[] = [
  'lid', 'rid', 'b1', 'b2', 's1', 's2', 'a', 'K', 'T', 'L', 'R', 'TT', 'TL', 'TR', 'LR', 'LL', 'RR',
  'id1', 'id2', 'id3', 'id4', 'id5', 'id6',
  'prop_034cf5c5', 'prop_66f8dd43', 'prop_81894ca4', 'prop_da4738e2', 'prop_4a90a23f', 'prop_73fa4877',
  'prop_d10a3b1a', 'prop_293cbc16', 'prop_55464ec9', 'prop_61fb8127', 'prop_ddd1c86f', 'prop_0d7e7151',
  'prop_1aae4a83', 'prop_1db0183a', 'prop_a4abb1e0', 'prop_55842885', 'prop_1a725917', 'prop_c626af2d',
  'prop_526a359c', 'prop_deeac89a', 'prop_575d1ed9', 'prop_f338e359', 'prop_5a914e30', 'prop_cc8a9ae6',
  'prop_c2aa8580', 'prop_b3890d2c', 'prop_f14899ed', 'prop_f2b7d0ab', 'prop_be6cad0a', 'prop_1e558562',
  'prop_e9eef609', 'prop_9ee87fb5', 'prop_da958b3f', 'prop_c3fa51e8', 'prop_ba6418d1', 'prop_d7dd57dd',
  'prop_e1aa92db', 'prop_19fcac9b2', 'prop_3d75df700', 'prop_acafcc6f0', 'prop_203fc9151', 'prop_2e844a2a9',
  'prop_d9f457e09', 'prop_ce2987245', 'prop_b7fe5fbfb',
  'prov9_7c96e347d4', 'prov9_3e047dc57d', 'prov9_ee78192c46', 'prov9_062c221162', 'prov9_d18167fcf7',
  'prov9_6385279d78', 'prov9_b192646899', 'prov9_2e3bc568bd_alt1', 'prov9_1ffb5e2572', 'prov9_7fed2c3e64',
  'prov9_47e1e09ded', 'prov9_a06014c62d_com', 'prov9_a06014c62d', 'prov9_49726cdcf0', 'prov9_a69214de59',
  'prov9_3a3c9a39ee', 'prov9_1cecad55d3', 'prov9_13e5c8ed0a', 'prov9_183b179b43',
];

const INDEX = new Map(AIMLEAP_EQUATIONS.map((n, i) => [n, i] as const));

/** AIMLEAP's number for an equation name, or undefined (no slot). */
export const aimleapIndex = (name: string): number | undefined => INDEX.get(name);

/** The slot of rewriting with `name` in `dir`, or undefined when AIMLEAP has no number for it. */
export function rewriteSlot(name: string, dir: Direction): number | undefined {
  const i = INDEX.get(name);
  return i === undefined ? undefined : 3 + 2 * i + (dir === 'lr' ? 0 : 1);
}

/** The slot of moving the cursor to argument `child` (1-3), or undefined. */
export const moveSlot = (child: number): number | undefined => (child >= 1 && child <= 3 ? child - 1 : undefined);

export type SlotOption = { kind: 'move'; child: number } | { kind: 'rewrite'; name: string; dir: Direction };

/** What a slot means. */
export function slotOption(slot: number): SlotOption | undefined {
  if (slot < 0 || slot >= OPTION_SLOTS) return undefined;
  if (slot < 3) return { kind: 'move', child: slot + 1 };
  const name = AIMLEAP_EQUATIONS[(slot - 3) >> 1];
  return name === undefined ? undefined : { kind: 'rewrite', name, dir: (slot - 3) % 2 === 0 ? 'lr' : 'rl' };
}
