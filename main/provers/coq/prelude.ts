import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** resources/coq/prelude.v: run before every proof and embedded verbatim in reproduction scripts. */
export const PRELUDE_PATH = fileURLToPath(new URL('../../../resources/coq/prelude.v', import.meta.url));

let cached: string | undefined;
export const arborPrelude = (): string => (cached ??= readFileSync(PRELUDE_PATH, 'utf8'));

/**
 * Only for the interactive session: the `hammer` tactic needs the plugin, reproduction scripts must not
 * (they contain the reconstruction tactics, which live in Hammer.Tactics).
 */
export const SESSION_ONLY_PRELUDE = ['From Hammer Require Import Hammer.'];
