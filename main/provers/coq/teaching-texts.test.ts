import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * Issue 21's positive evidence: public teaching texts nobody here wrote, which define their own `bool`,
 * `true`, `nat`, `O`, `S`, `add`, `negb` (shadowing the standard library's), run through the real arbor-shell
 * as a user would write them: their definitions as DEFINEs, their theorems as GOAL … END with the text's own
 * proof as APPLY lines. Each theorem is accepted, and the finishing END shows the document's names
 * qualified (STATEMENT: `true` is the document's own `Top.true`). Sources and licences: fixtures/public/*\/SOURCE.md.
 */
const fixture = (path: string): string => readFileSync(new URL(`../../../fixtures/public/${path}`, import.meta.url), 'utf8');
/** The text's sentences, comments removed (these texts hold no strings, nested comments or `..`). */
const sentences = (text: string): string[] =>
  text.replace(/\(\*[\s\S]*?\*\)/g, ' ').split(/\.(?=\s|$)/).map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean).map((s) => `${s}.`);
/** Declarations of the text, in order (queries such as Check/Compute/Print are for the reader, not the document). */
const declarations = (text: string): string => sentences(text).filter((s) => /^(Require|Inductive|Definition|Fixpoint)\b/.test(s)).join(' ');
/** Each finished theorem (`Theorem n : S. Proof. … Qed.`): its statement and its tactics, bullets and braces left out. */
const theorems = (text: string): { name: string; statement: string; tactics: string[] }[] => {
  const out: { name: string; statement: string; tactics: string[] }[] = [];
  // A closing brace or bullet before a sentence is structure, not part of it.
  const all = sentences(text).map((x) => x.replace(/^([-+*{}]\s*)+/, ''));
  for (let i = 0; i < all.length; i++) {
    const head = /^Theorem (\S+) : ([\s\S]*)\.$/.exec(all[i] as string);
    if (!head) continue;
    const tactics: string[] = [];
    let j = i + 1;
    for (; j < all.length && !/^(Qed|Abort)\.$/.test(all[j] as string); j++) {
      const t = (all[j] as string).replace(/^([-+*{}]\s*)+/, '').replace(/\s*}+$/, '').replace(/\.$/, '').trim();
      if (t !== '' && t !== 'Proof') tactics.push(t);
    }
    if (all[j] === 'Qed.') out.push({ name: head[1] as string, statement: head[2] as string, tactics });
    i = j;
  }
  return out;
};

const q = (s: string): string => `"${s.replace(/"/g, '\\"')}"`;
let shell: ShellProcess;
beforeAll(() => {
  shell = new ShellProcess(['--timeout', '10']);
});
afterAll(async () => {
  await shell.end();
});

/**
 * One fresh channel: the DEFINE, then each theorem, its tactics one APPLY each. As in the protocol, a proved
 * subgoal is left with END before the next tactic goes to the next one (the text's bullets and braces say
 * the same to Coq). Returns the END that finishes each theorem.
 */
async function prove(define: string, items: { statement: string; tactics: string[] }[]): Promise<ShellResponse[]> {
  const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
  const send = async (line: string): Promise<ShellResponse> => {
    const r = await shell.request(`${ch} ${line}`, ch);
    expect(r.ERR, line).toBe('');
    return r;
  };
  const ends: ShellResponse[] = [];
  try {
    await send(`DEFINE ${q(define)}`);
    for (const t of items) {
      await send(`GOAL ${q(t.statement)}`);
      for (const tactic of t.tactics) {
        const line = `APPLY (${tactic})`;
        const r = await shell.request(`${ch} ${line}`, ch);
        if (/^no goal: the current goal is proved/.test(r.ERR)) {
          await send('END');
          await send(line);
        } else expect(r.ERR, line).toBe('');
      }
      ends.push(await send('END'));
    }
  } finally {
    await shell.request(`${ch} RELEASE_CHANNEL`, ch);
  }
  return ends;
}

describe('public teaching texts that define their own bool and nat are accepted, shown with their own names', () => {
  it('PeaCoq\'s first steps: its own bool, both theorems', async () => {
    const text = fixture('peacoq/first-steps.v');
    const thms = theorems(text);
    expect(thms.map((t) => t.name)).toEqual(['bools_are_true_or_false', 'bools_are_not_true_and_false', 'bools_are_not_true_and_false']);
    const ends = await prove(declarations(text), thms.slice(0, 2));
    expect(ends).toHaveLength(2);
    for (const end of ends) {
      expect(end.STATEMENT?.elaborated).toMatch(/^forall \(b : Top\.bool\), /);
      expect(end.STATEMENT?.differences).toContain('`true` is the document\'s own `Top.true`, not `Coq.Init.Datatypes.true`');
    }
  }, 180_000);

  it('Boyer\'s lesson 0 (its own nat, add) with lesson 3\'s theorems and proofs', async () => {
    const lesson0 = fixture('stepchowfun-proofs/Lesson0_Intro.v');
    const thms = theorems(fixture('stepchowfun-proofs/Lesson3_Induction.v'));
    expect(thms.map((t) => t.name)).toEqual(['zero_plus_n', 'n_plus_zero', 'plus_assoc']);
    // Lesson 3 writes them over the library's `0` and `+`; in lesson 0's document they are its own `O` and `add`.
    const over: Record<string, string> = {
      zero_plus_n: 'forall n, add O n = n',
      n_plus_zero: 'forall n, add n O = n',
      plus_assoc: 'forall n m p, add n (add m p) = add (add n m) p',
    };
    const ends = await prove(declarations(lesson0), thms.map((t) => ({ statement: over[t.name] as string, tactics: t.tactics })));
    expect(ends).toHaveLength(3);
    for (const end of ends) {
      expect(end.STATEMENT?.elaborated).toMatch(/^forall \(n : Top\.nat\)/);
      expect(end.STATEMENT?.differences.join('\n')).toMatch(/`add` is the document's own `Top\.add`/);
    }
    expect(ends[0]?.STATEMENT?.differences).toContain('`O` is the document\'s own `Top.O`, not `Coq.Init.Datatypes.O`');
  }, 180_000);
});
