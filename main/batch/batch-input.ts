import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { BatchJob, BatchKind } from '../../shared/batch/batch-job.ts';
import { batchJobSchema } from '../../shared/batch/batch-job.ts';
import { parseCaseLines } from '../../shared/fidelity/fidelity-cases.ts';
import type { TierId } from '../../shared/fidelity/fidelity-types.ts';
import { resolveContext } from '../fidelity/fidelity-command.ts';
import { PathOutsideFolder, reallyInside } from '../fidelity/confined-path.ts';
import { parseArticle } from '../provers/eq/article.ts';
import { parseEquation } from '../provers/eq/parse-term.ts';
import { TermBank } from '../provers/eq/term.ts';

/** One item of a batch: its job and the job's id (the same input and options give the same id). */
export interface BatchItem {
  id: string;
  jobId: string;
  job: BatchJob;
}

/** A line (or file) of the input that holds no runnable item: reported as that item's error. */
export interface BadInput {
  id: string;
  jobId: string;
  message: string;
}

export interface BatchInput {
  items: BatchItem[];
  bad: BadInput[];
}

export interface BatchInputOptions {
  /** Per-kind limit in seconds: fidelity per tactic (4), AIM per problem (10), HAMMER (10), check per command (10). */
  timeoutSeconds?: number;
  /** aim: the preamble, when INPUT holds only theorem lines. */
  preamble?: string;
  /** aim: let E prover run beside Arbor's completion where a worker has it (default true). */
  useE?: boolean;
  /** fidelity */
  tiers?: TierId[];
  classical?: boolean;
  fidelityBackend?: 'coq' | 'lean';
  /** fidelity: a context shared by every case without one of its own. */
  context?: string;
}

/** The whole input is unusable (a missing preamble, a case file without its header): exit 2. */
export class BatchInputError extends Error {}

export const DEFAULT_TIMEOUT_SECONDS: Record<BatchKind, number> = { fidelity: 4, aim: 10, hammer: 10, check: 10 };
const MAX_DOCUMENT_BYTES = 4 << 20;
/** A case/problem file: far above any real one, well below what would strain the dispatcher's memory. */
const MAX_INPUT_BYTES = 64 << 20;

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Job ids are BullMQ ids too: no `:`, never only digits. */
export function jobIdOf(job: BatchJob): string {
  return `${job.kind}-${sha(JSON.stringify(['arbor-batch-1', job])).slice(0, 32)}`;
}

/** The batch's id: its kind and the ids of all its items, so re-running the same input finds its report. */
export function batchIdOf(kind: BatchKind, jobIds: readonly string[]): string {
  return sha(JSON.stringify([kind, [...jobIds].sort()])).slice(0, 16);
}

function badInput(kind: BatchKind, id: string, message: string): BadInput {
  return { id, jobId: `input-${sha(JSON.stringify([kind, id, message])).slice(0, 32)}`, message };
}

/** Reads INPUT (a file, or for `check` a folder) into one job per item, and the lines that hold none. */
export async function readBatchInput(kind: BatchKind, input: string, options: BatchInputOptions = {}): Promise<BatchInput> {
  const seconds = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS[kind];
  const items: BatchItem[] = [];
  const bad: BadInput[] = [];
  const seen = new Set<string>();
  const add = (job: BatchJob): void => {
    if (seen.has(job.id)) {
      bad.push(badInput(kind, `${job.id} (again)`, `duplicate item id '${job.id}'`));
      return;
    }
    const checked = batchJobSchema.safeParse(job);
    if (!checked.success) {
      bad.push(badInput(kind, job.id, `${checked.error.issues[0]?.path.join('.') ?? 'item'}: ${checked.error.issues[0]?.message ?? 'invalid'}`));
      return;
    }
    seen.add(job.id);
    items.push({ id: job.id, jobId: jobIdOf(checked.data), job: checked.data });
  };

  if (kind === 'check') {
    const folder = resolve(input);
    const isFolder = (await stat(folder).catch(() => undefined))?.isDirectory() ?? false;
    for (const f of await arborFiles(input)) {
      if (isFolder && !(await reallyInside(folder, f.path).catch(() => false))) {
        bad.push(badInput(kind, f.id, 'refused: a link to a file outside the input folder'));
        continue;
      }
      const info = await stat(f.path);
      const size = info.size;
      // A FIFO named *.arbor would block the read (and the batch) for ever.
      if (!info.isFile()) bad.push(badInput(kind, f.id, 'refused: not a regular file'));
      else if (size > MAX_DOCUMENT_BYTES) bad.push(badInput(kind, f.id, `document too large (${size} bytes; limit ${MAX_DOCUMENT_BYTES})`));
      else add({ kind, id: f.id, document: await readFile(f.path, 'utf8'), timeoutMs: Math.round(seconds * 1000) });
    }
    return { items, bad };
  }

  const path = resolve(input);
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) throw new BatchInputError(`no such file: ${input}`);
  if (size > MAX_INPUT_BYTES) throw new BatchInputError(`INPUT too large (${size} bytes; limit ${MAX_INPUT_BYTES}): split it into several batches`);
  const text = await readFile(path, 'utf8');
  switch (kind) {
    case 'fidelity': {
      let lines;
      try {
        lines = parseCaseLines(text);
      } catch (err) {
        throw new BatchInputError((err as Error).message);
      }
      for (const l of lines) {
        if ('error' in l) {
          bad.push(badInput(kind, `line ${l.line}`, l.error));
          continue;
        }
        const c = l.case;
        let context: string | undefined;
        try {
          context = (await resolveContext(c, dirname(path))) ?? options.context;
        } catch (err) {
          if (!(err instanceof PathOutsideFolder)) throw err;
          bad.push(badInput(kind, c.id, `context: ${err.message}`));
          continue;
        }
        add({
          kind, id: c.id, canonical: c.canonical, candidate: c.candidate, ...(context ? { context } : {}), ...(c.truth ? { truth: c.truth } : {}),
          backend: options.fidelityBackend ?? 'coq', ...(options.tiers ? { tiers: options.tiers } : {}), timeoutMs: Math.round(seconds * 1000), classical: options.classical ?? false,
        });
      }
      return { items, bad };
    }
    case 'aim': {
      const { preamble, theorems, others } = splitArticle(text);
      if (preamble.trim() !== '' && options.preamble !== undefined) throw new BatchInputError('INPUT has a preamble of its own: leave out --preamble');
      const shared = preamble.trim() !== '' ? preamble : options.preamble;
      if (shared === undefined) throw new BatchInputError('INPUT holds only theorem lines: give the preamble with --preamble FILE');
      const bank = new TermBank();
      try {
        parseArticle(bank, shared);
      } catch (err) {
        throw new BatchInputError(`preamble: ${(err as Error).message}`);
      }
      const badLines = others.map((o) => ({ line: o.line, message: `not a theorem line: ${o.text.slice(0, 80)}` }));
      for (const t of theorems) {
        let name: string;
        try {
          const article = parseArticle(bank, t.text);
          const th = article.theorems[0];
          if (!th) throw new Error('no theorem');
          parseEquation(bank, th.statement, { names: 'constants' });
          name = th.name;
        } catch (err) {
          badLines.push({ line: t.line, message: `${(err as Error).message.replace(/^line \d+: /, '')}: ${t.text.slice(0, 80)}` });
          continue;
        }
        add({ kind, id: name, preamble: shared, theorem: t.text, limitMs: Math.round(seconds * 1000), useE: options.useE ?? true });
      }
      for (const b of badLines.sort((x, y) => x.line - y.line)) bad.push(badInput(kind, `line ${b.line}`, b.message));
      return { items, bad };
    }
    case 'hammer': {
      const lines = text.split(/\r?\n/).map((l, i) => ({ text: l, line: i + 1 })).filter((l) => l.text.trim() !== '' && !l.text.startsWith('#'));
      const header = lines[0]?.text.includes('\t') ? lines[0].text.split('\t').map((h) => h.trim().toLowerCase()) : undefined;
      if (header && header.includes('statement')) {
        for (const l of lines.slice(1)) {
          const cells = l.text.split('\t');
          const cell = (name: string): string => (cells[header.indexOf(name)] ?? '').trim();
          const statement = unquote(cell('statement'));
          const id = (header.includes('id') ? cell('id') : '') || `line ${l.line}`;
          if (statement === '') bad.push(badInput(kind, id, `line ${l.line}: no statement`));
          else add({ kind, id, statement, ...(cell('context') ? { context: cell('context').replace(/\\n/g, '\n') } : {}), seconds });
        }
      } else {
        for (const l of lines) add({ kind, id: `line ${l.line}`, statement: unquote(l.text.trim()), seconds });
      }
      return { items, bad };
    }
  }
}

/** `"forall n, …"` and `forall n, …` are the same statement. */
const unquote = (s: string): string => (/^"[^"]*"$/.test(s) ? s.slice(1, -1) : s);

/** An AIM file: the preamble's lines, the theorem lines, and the lines that are neither (with line numbers). */
function splitArticle(text: string): { preamble: string; theorems: { line: number; text: string }[]; others: { line: number; text: string }[] } {
  // Comments may span lines: blank them out, keeping the line numbers.
  const lines = text.replace(/\(\*[\s\S]*?\*\)/g, (m) => m.replace(/[^\n]/g, ' ')).split(/\r?\n/);
  const preamble: string[] = [];
  const theorems: { line: number; text: string }[] = [];
  const others: { line: number; text: string }[] = [];
  lines.forEach((raw, k) => {
    const line = raw.trim();
    if (/^(Theorem|Lemma|Corollary)\s/.test(line)) theorems.push({ line: k + 1, text: line });
    else if (line === '' || line === 'Admitted.' || line === 'Qed.') return;
    else if (/^(ARTICLE|Axiom\s|Known\s|Definition\s)/.test(line)) preamble.push(line);
    else others.push({ line: k + 1, text: line });
  });
  return { preamble: preamble.join('\n'), theorems, others };
}

/** The proof documents of a folder (recursively, sorted), or one document. */
async function arborFiles(input: string): Promise<{ id: string; path: string }[]> {
  const root = resolve(input);
  let info;
  try {
    info = await stat(root);
  } catch {
    throw new BatchInputError(`no such file or folder: ${input}`);
  }
  if (info.isFile()) return [{ id: input, path: root }];
  const names = (await documentNames(root)).sort();
  const files = names.map((n) => ({ id: relative(root, join(root, n)), path: join(root, n) }));
  if (files.length === 0) throw new BatchInputError(`no proof documents (*.arbor) in ${input}`);
  return files;
}

/**
 * The `*.arbor` entries under `root` (relative names), descending into real folders only: `readdir`'s
 * `recursive` follows links to folders, so a link to `..` or `/` made it walk the disk (until ELOOP).
 * Links to files are listed; the caller refuses those that lead out of the folder.
 */
async function documentNames(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, prefix), { withFileTypes: true })) {
    const name = prefix === '' ? e.name : join(prefix, e.name);
    if (e.isDirectory()) out.push(...(await documentNames(root, name)));
    else if (e.name.endsWith('.arbor')) out.push(name);
  }
  return out;
}
