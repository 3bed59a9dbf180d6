import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { arborPrelude, SESSION_ONLY_PRELUDE } from './prelude.ts';
import { splitSentences } from './coq-sentence.ts';

/**
 * The environment a Coq document starts from (issue 24). `default` is Arbor's prelude as it always was
 * (Arith, Lia, List, Bool, ZArith and ListNotations imported). `bare` is Coq's `Init` only, as `coqc`
 * gives a `.v` file; a list of named library sets (`arith,lists`) is `bare` plus exactly those imports.
 * In every environment but `default`, Arbor's tactics (lia, CoqHammer's sauto family and hammer, CRUSH's
 * arbor_crush) are loaded without importing their libraries' names or notations into the document.
 */
export const LIBRARY_SETS: Readonly<Record<string, string>> = {
  arith: 'From Coq Require Import Arith.',
  bool: 'From Coq Require Import Bool.',
  lia: 'From Coq Require Import Lia.',
  lists: 'From Coq Require Import List.\nImport ListNotations.',
  zarith: 'From Coq Require Import ZArith.',
  strings: 'From Coq Require Import String Ascii.',
};

export const DEFAULT_ENVIRONMENT = 'default';
const BARE_PATH = fileURLToPath(new URL('../../../resources/coq/prelude-bare.v', import.meta.url));
let bare: string | undefined;

/** `default`, `bare`, or a comma-separated list of LIBRARY_SETS names; why not, or undefined. */
export function environmentProblem(name: string): string | undefined {
  if (name === DEFAULT_ENVIRONMENT || name === 'bare') return undefined;
  // Own keys only: `in` would also accept Object.prototype's (`toString`, `constructor`).
  const unknown = name.split(',').filter((n) => !Object.hasOwn(LIBRARY_SETS, n));
  if (unknown.length === 0) return undefined;
  return `unknown environment: ${unknown.join(', ')} (known: default, bare, or a list of ${Object.keys(LIBRARY_SETS).join(', ')})`;
}

/** The prelude text of an environment: run first in every session and embedded in every script. */
export function environmentPrelude(name = DEFAULT_ENVIRONMENT): string {
  if (name === DEFAULT_ENVIRONMENT) return arborPrelude();
  bare ??= readFileSync(BARE_PATH, 'utf8');
  if (name === 'bare') return bare;
  const sets = name.split(',').filter((n) => Object.hasOwn(LIBRARY_SETS, n)).map((n) => LIBRARY_SETS[n] as string);
  return `${bare.trimEnd()}\n\n(* The document's library sets (${name}). *)\n${sets.join('\n')}\n`;
}

/**
 * The sentences an environment's library sets add to the bare prelude (none for `default` and `bare`): the
 * document's own library sentences as far as the statement judge goes, so its clean reading has the same
 * library vocabulary (a redefined `String.substring` is then a shadowed library name, never a new word).
 */
export function environmentLibrarySentences(name = DEFAULT_ENVIRONMENT): string[] {
  if (name === DEFAULT_ENVIRONMENT || name === 'bare') return [];
  return name.split(',').filter((n) => Object.hasOwn(LIBRARY_SETS, n)).flatMap((n) => splitSentences(LIBRARY_SETS[n] as string));
}

/** Only for the interactive session (the `hammer` tactic needs CoqHammer's plugin; scripts must not). */
export function sessionOnlyPrelude(name = DEFAULT_ENVIRONMENT): string[] {
  // Importing the plugin's module also exports Hammer.Tactics (tactics, `rdone`): the bare prelude imports those anyway.
  return name === DEFAULT_ENVIRONMENT ? SESSION_ONLY_PRELUDE : ['From Hammer Require Hammer.', 'Import Hammer.Plugin.Hammer.'];
}
