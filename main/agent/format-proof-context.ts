import { parseRequest } from '../../shared/protocol/parse-request.ts';
import { commandSpec } from '../../shared/protocol/commands.ts';
import type { GoalInContext } from '../../shared/proof-tree/tree-view-queries.ts';
import type { ScriptLine } from './script-tracker.ts';

export interface ContextFormatInput {
  channel: number;
  lines: readonly ScriptLine[];
  linesBefore: number;
  includeTheorems: boolean;
  current?: GoalInContext;
  prelude?: string;
}

/** A lemma-like declaration found in a prelude. */
export interface PreludeTheorem {
  kind: string;
  name: string;
  statement: string;
}

/**
 * `get_proof_context`: the last lines of the proof script (the "cursor" is the end of the checked
 * script) and the theorems an agent can use: facts in the current goal's context, facts the script
 * stated with HAVE/OBTAIN, and lemmas declared in the prelude.
 */
export function formatProofContext(input: ContextFormatInput): string {
  const { lines, linesBefore } = input;
  const shown = linesBefore > 0 ? lines.slice(-linesBefore) : [];
  const out = ['=== PROOF CONTEXT ===', ''];
  const step = lines[lines.length - 1]?.step ?? 0;
  out.push(`--- Proof script (last ${shown.length} of ${lines.length} lines; channel ${input.channel}, step ${step}) ---`);
  if (lines.length === 0) out.push('(no proof yet: start one with run_command GOAL "…")');
  const first = lines.length - shown.length;
  shown.forEach((l, i) => out.push(`${String(first + i + 1).padStart(4)}  ${l.text}`));
  if (!input.includeTheorems) return out.join('\n');
  out.push('', '--- Available theorems ---');
  const facts = input.current?.hyps ?? [];
  out.push('Hypotheses of the current goal:');
  out.push(...(facts.length > 0 ? facts.map((h) => `  ${h.name} : ${h.expr}`) : ['  (none)']));
  const stated = statedFacts(lines);
  out.push('Stated in this script (HAVE/OBTAIN):');
  out.push(...(stated.length > 0 ? stated.map((s) => `  ${s}`) : ['  (none)']));
  const own = documentItems(lines);
  out.push('Declared and proved earlier in this document (usable by name):');
  out.push(...(own.length > 0 ? own.map((t) => `  ${t}`) : ['  (none)']));
  const prelude = input.prelude ? preludeTheorems(input.prelude) : [];
  out.push('From the prelude:');
  out.push(...(prelude.length > 0 ? prelude.map((t) => `  ${t.kind} ${t.name}${t.statement ? ` : ${t.statement}` : ''}`) : ['  (none)']));
  return out.join('\n');
}

/**
 * The document's own items before the proof in progress: DEFINE'd declarations, and theorems whose proof
 * was finished (an unfinished proof never stays in the script once a later item starts).
 */
function documentItems(lines: readonly ScriptLine[]): string[] {
  const parsed = lines.map((l) => parseRequest(l.text)).map((p) => ('error' in p ? undefined : p.command));
  const starts = parsed.map((c, i) => (c !== undefined && commandSpec(c.name).level === 'document' ? i : -1)).filter((i) => i >= 0);
  const out: string[] = [];
  starts.forEach((i, k) => {
    const c = parsed[i];
    const last = k === starts.length - 1;
    if (c?.name === 'DEFINE') out.push(`DEFINE ${c.text}`);
    else if (c?.name === 'GOAL' && !last) out.push(`Theorem ${c.theoremName ?? '(unnamed)'} : ${c.expr}`);
  });
  return out;
}

function statedFacts(lines: readonly ScriptLine[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const parsed = parseRequest(l.text);
    if ('error' in parsed) continue;
    const c = parsed.command;
    if (c.name === 'HAVE') out.push(`${c.hypName ?? '(unnamed)'} : ${c.expr}   (line with step ${l.step})`);
    else if (c.name === 'OBTAIN') {
      for (const cond of c.conds) out.push(`${cond.name ?? '(unnamed)'} : ${cond.expr}   (OBTAIN ${c.vars.join(' ')}, step ${l.step})`);
    }
  }
  return out;
}

/** `Lemma name : statement.` and friends in Coq vernacular (comments are skipped). */
export function preludeTheorems(prelude: string): PreludeTheorem[] {
  const text = prelude.replace(/\(\*[\s\S]*?\*\)/g, ' ');
  const re = /\b(Lemma|Theorem|Corollary|Proposition|Fact|Remark|Definition|Fixpoint|Inductive|Axiom)\s+([A-Za-z_][\w']*)([^.]*(?:\.[^\s][^.]*)*)\./g;
  const out: PreludeTheorem[] = [];
  for (const m of text.matchAll(re)) {
    const rest = (m[3] ?? '').replace(/\s+/g, ' ').trim();
    const statement = rest.startsWith(':') ? rest.slice(1).trim() : rest.split(':=')[0]?.trim() ?? '';
    out.push({ kind: m[1] as string, name: m[2] as string, statement: statement.slice(0, 300) });
  }
  return out;
}
