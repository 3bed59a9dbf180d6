/**
 * A `_CoqProject` file as Coq's own reader (`lib/coqProject_file.ml`, which coq-lsp and VsRocq use) reads
 * it: words split on blanks, `#` starts a comment to the end of the line, `"…"` keeps blanks in one word;
 * `-Q dir Lib` and `-R dir Lib` bind a directory to a logical prefix, `-arg` passes its value to Coq split
 * on unquoted spaces (single quotes keep blanks together), `X = value` defines a make variable, anything
 * else not starting with `-` is a file or directory of the project.
 *
 * Arbor uses only what cannot run a program: load paths, and `-arg` options on an allow-list (`-w`). `-I`
 * (OCaml plugin directories: native code) and every other option are reported as ignored, with why.
 */

export interface CoqLoadPathEntry {
  /** `-Q`: only `Lib.X` names; `-R`: recursive, subdirectories' names too (Coq's own difference). */
  kind: 'Q' | 'R';
  /** As written (relative to the project file's folder unless absolute). */
  dir: string;
  logical: string;
}

export interface CoqProjectFile {
  loadPaths: CoqLoadPathEntry[];
  /** `-arg` words Arbor passes on (from the allow-list), in order. */
  args: string[];
  /** What Arbor does not use, each with the reason (shown to the user). */
  ignored: string[];
  /** Files and directories the project lists (informative). */
  files: string[];
}

/** Words of the file: Coq's `parse_args` (blanks split, `#` comments, `"` strings without escapes). */
export function coqProjectWords(text: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      i++;
    } else if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (c === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) throw new Error('_CoqProject: unterminated string');
      words.push(text.slice(i + 1, close));
      i = close + 1;
    } else {
      // A plain word ends at a blank or a `#` (which starts a comment, as in Coq's reader).
      let j = i;
      while (j < text.length && !' \n\r\t#'.includes(text[j] as string)) j++;
      words.push(text.slice(i, j));
      i = j;
    }
  }
  return words;
}

/** `-arg`'s value as Coq splits it: unquoted spaces separate, single quotes group and are dropped. */
export function splitExtraArgs(value: string): string[] {
  const out: string[] = [];
  let buf = '';
  let quoted = false;
  let pending = false;
  for (const c of value) {
    if (c === "'") {
      quoted = !quoted;
      pending = true;
    } else if (c === ' ' && !quoted) {
      if (pending) out.push(buf);
      buf = '';
      pending = false;
    } else {
      buf += c;
      pending = true;
    }
  }
  if (pending) out.push(buf);
  return out;
}

/** A logical path: dot-separated Coq identifiers (letters, digits, `_`, `'`, not starting with a digit or `'`). */
const LOGICAL = /^[\p{L}_][\p{L}\p{N}_']*(\.[\p{L}_][\p{L}\p{N}_']*)*$/u;

/**
 * Logical prefixes a project may not bind: Coq's own library is `Coq.…`, and assumptions are trusted by
 * kernel name (`Coq.Logic.Classical_Prop.classic`), so a project's `Axiom classic : False.` compiled under
 * `-Q dir Coq` would be trusted as the library's excluded middle. An empty prefix reaches `Coq.…` too through
 * a subdirectory named `Coq`, with `-R` and with `-Q` alike (both are recursive: `-Q theories ""` makes
 * theories/Coq/Reals/Reals.vo `Coq.Reals.Reals`, which a document's `Require` then loads instead of the library's).
 */
/**
 * Roots of the libraries installed beside Coq that Arbor loads or reads as the library's: `Hammer` (Arbor's own
 * prelude runs `From Hammer Require Import Tactics`; `-Q theories Hammer` made it load the project's
 * theories/Tactics.vo, notations and all) and `Ltac2` (user-contrib). A project under one of them shadows it.
 */
const INSTALLED_ROOTS = ['Hammer', 'Ltac2'];

const reservedLogical = (kind: 'Q' | 'R', logical: string): string | undefined =>
  logical === 'Coq' || logical.startsWith('Coq.') ? 'the prefix Coq is the standard library (trusted by name)'
    : INSTALLED_ROOTS.some((r) => logical === r || logical.startsWith(`${r}.`)) ? `the prefix ${logical.split('.')[0] ?? ''} is an installed library's (Arbor loads it as such)`
    : logical === '' ? `an empty prefix with -${kind} would let a subdirectory named Coq pass as the standard library`
      : undefined;

/**
 * `-arg` options Arbor passes to its provers: only warnings, which change what Coq says, never what it
 * runs or what it accepts. `-noinit` is left out (Arbor's own prelude needs `Init`); `-set`/`-unset` can
 * reach options such as `Hammer PredictPath` (a program CoqHammer runs), `-load-vernac-source`/`-l` and
 * `-require` run files, `-I`/`-include` load native plugins, `-type-in-type`/`-impredicative-set` change
 * the logic proofs are judged in.
 */
const ALLOWED_ARGS: Record<string, number> = { '-w': 1 };

/** Parses a `_CoqProject`'s text; never throws for content (an unreadable part is reported in `ignored`). */
export function parseCoqProject(text: string): CoqProjectFile {
  const out: CoqProjectFile = { loadPaths: [], args: [], ignored: [], files: [] };
  let words: string[];
  try {
    words = coqProjectWords(text);
  } catch (e) {
    out.ignored.push(`${(e as Error).message}: the file is not used`);
    return out;
  }
  let i = 0;
  const extra: string[] = [];
  const take = (n: number): string[] | undefined => {
    const got = words.slice(i + 1, i + 1 + n);
    return got.length === n ? got : undefined;
  };
  while (i < words.length) {
    const w = words[i] as string;
    if (w === '-Q' || w === '-R') {
      const got = take(2);
      if (got === undefined) {
        out.ignored.push(`${w} needs a directory and a logical name`);
        break;
      }
      const [dir, logical] = got as [string, string];
      if (dir === '') out.ignored.push(`${w} with an empty directory`);
      else if (!LOGICAL.test(logical) && logical !== '') out.ignored.push(`${w} ${dir} ${logical}: not a logical path`);
      else if (reservedLogical(w === '-Q' ? 'Q' : 'R', logical) !== undefined) out.ignored.push(`${w} ${dir} ${logical}: ${reservedLogical(w === '-Q' ? 'Q' : 'R', logical) ?? ''}`);
      else out.loadPaths.push({ kind: w === '-Q' ? 'Q' : 'R', dir, logical });
      i += 3;
    } else if (w === '-arg') {
      const got = take(1);
      if (got === undefined) {
        out.ignored.push('-arg without a value');
        break;
      }
      // Coq joins every `-arg`'s words into one list (`-arg -w -arg -notation-overridden` is one option).
      extra.push(...splitExtraArgs(got[0] as string));
      i += 2;
    } else if (w === '-I') {
      out.ignored.push(`-I ${words[i + 1] ?? ''}: OCaml plugins are native code; Arbor does not load them`.trim());
      i += 2;
    } else if (w === '-native-compiler' || w === '-docroot' || w === '-generate-meta-for-package' || w === '-o' || w === '-f') {
      out.ignored.push(`${w}: a build option, not used for checking`);
      i += 2;
    } else if (words[i + 1] === '=' && !w.startsWith('-')) {
      // `VAR = value`: a make variable for coq_makefile.
      i += 3;
    } else if (w.startsWith('-')) {
      out.ignored.push(`${w}: unknown option`);
      i += 1;
    } else {
      out.files.push(w);
      i += 1;
    }
  }
  for (let k = 0; k < extra.length; k++) {
    const opt = extra[k] as string;
    const n = ALLOWED_ARGS[opt];
    if (n !== undefined && k + n < extra.length) {
      out.args.push(opt, ...extra.slice(k + 1, k + 1 + n));
      k += n;
    } else {
      out.ignored.push(`-arg ${opt}: ${n === undefined ? 'not on the allow-list (only -w: warnings)' : 'needs a value'}`);
    }
  }
  return out;
}
