/**
 * TEST FIXTURE, never used by the product: a tiny real process that speaks a minimal version of the
 * channel protocol (seed 000) as a process without STEP or REVERT would, so the
 * pass-through engine's bookkeeping, restart and replay run against a real process. Misbehaviour on
 * demand, keyed by words in a request:
 *   GARBAGE  → prints a line that is not JSON
 *   SLOW     → answers after 5 s
 *   CRASH    → exits with code 3 without answering
 * Commands: GOAL "t", HAVE [name] "e", APPLY <new goal text> (replaces the current goal; `APPLY done`
 * proves it), LET, PRINT_MODE, END/NEXT (removes the current goal), anything else → "unknown command".
 * The END that finishes the proof carries SCRIPT (an Isabelle proof text without theory header).
 */
import { createInterface } from 'node:readline';

interface Leaf { hyps: { name: string; expr: string }[]; goal: string }
let leaves: Leaf[] = [];
let theorem = '';
const lines: string[] = [];

const state = (): unknown => {
  const ctxt = { vars: [], hyps: [] };
  const render = (l: Leaf): unknown => ({ ctxt: { vars: [], hyps: l.hyps }, goal: l.goal });
  if (leaves.length === 1) return render(leaves[0] as Leaf);
  return { ctxt, goal: leaves.map(render) };
};
const say = (response: unknown, err = '', extra: Record<string, unknown> = {}): void => {
  process.stdout.write(`${JSON.stringify({ CHANNEL: 0, RESPONSE: response, ERR: err, ...extra })}\n`);
};
const quoted = (text: string): string | undefined => /"((?:[^"\\]|\\.)*)"|\\<open>(.*)\\<close>/.exec(text)?.slice(1).find((s) => s !== undefined);

const rl = createInterface({ input: process.stdin });
rl.on('line', (raw) => {
  const line = raw.trim();
  if (line === '') return;
  if (line.includes('CRASH')) process.exit(3);
  if (line.includes('GARBAGE')) {
    process.stdout.write('*** Isabelle says: this is not JSON\n');
    return;
  }
  const answer = (): void => {
    const [name] = line.split(/\s+/);
    switch (name) {
      case 'GOAL': {
        const t = quoted(line) ?? '';
        leaves = [{ hyps: [], goal: t }];
        theorem = t;
        lines.length = 0;
        return say(state());
      }
      case 'HAVE': {
        const e = quoted(line);
        const cur = leaves[0];
        if (!cur || e === undefined) return say(null, 'no goal');
        const hyp = /^HAVE\s+([A-Za-z_]\w*)\s/.exec(line)?.[1] ?? `h${lines.length + 1}`;
        leaves = [{ hyps: cur.hyps, goal: e }, { hyps: [...cur.hyps, { name: hyp, expr: e }], goal: cur.goal }, ...leaves.slice(1)];
        lines.push(`have ${hyp}: "${e}" by auto`);
        return say(state());
      }
      case 'APPLY': {
        const cur = leaves[0];
        if (!cur) return say(null, 'no goal');
        const arg = line.slice('APPLY'.length).trim();
        leaves = [{ hyps: cur.hyps, goal: arg === 'done' ? 'True' : arg }, ...leaves.slice(1)];
        lines.push(`apply ${arg}`);
        return say(state());
      }
      case 'LET':
      case 'PRINT_MODE':
        return say(leaves.length > 0 ? state() : null);
      case 'END':
      case 'NEXT': {
        if (leaves.length === 0) return say(null, 'no goal');
        if (leaves[0]?.goal === 'unprovable') return say(null, 'fail');
        leaves = leaves.slice(1);
        if (leaves.length === 0) return say(state(), '', { SCRIPT: `lemma "${theorem}"\n  ${lines.join('\n  ')}\n  by auto` });
        return say(state());
      }
      default:
        return say(null, `unknown command: ${name ?? ''}`);
    }
  };
  if (line.includes('SLOW')) setTimeout(answer, 5000);
  else answer();
});
