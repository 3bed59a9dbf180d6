/**
 * Renders a Lean 4 proof from the steps a session made. The script mirrors the bundle tree: a step that
 * splits the goal gets one `·` block per new goal, `have`/`obtain` carry their claim's proof in a nested
 * `by` block, and every goal still open is a `sorry`. Blocks follow Lean's own goal order, which is the
 * order Pantograph reported, so `lake env lean` accepts the script as written.
 */
export interface ScriptOp {
  /** The goal (Pantograph mvar name) the step acted on. */
  goal: string;
  /** `tactic`: `text` is a tactic; `block`: `text` is a `have …`/`obtain …` header whose claim is `produced[0]`. */
  kind: 'tactic' | 'block';
  text: string;
  /** The goals the step produced, in Lean's order (for `block`: the claim, then the main goal). */
  produced: string[];
}

export interface LeanScriptInput {
  imports: readonly string[];
  theoremName: string;
  statement: string;
  rootGoal: string | undefined;
  ops: readonly ScriptOp[];
  openGoals: number;
}

export function renderLeanScript(input: LeanScriptInput): string {
  const queues = new Map<string, ScriptOp[]>();
  for (const op of input.ops) {
    const q = queues.get(op.goal) ?? [];
    q.push(op);
    queues.set(op.goal, q);
  }
  const render = (goal: string, indent: string, depth: number): string[] => {
    const op = depth > 10_000 ? undefined : queues.get(goal)?.shift();
    if (!op) return [`${indent}sorry`];
    const head = `${indent}${op.text}`;
    if (op.kind === 'block') {
      const [claim, main] = op.produced;
      return [`${head} := by`, ...(claim !== undefined ? render(claim, `${indent}  `, depth + 1) : [`${indent}  sorry`]), ...(main !== undefined ? render(main, indent, depth + 1) : [])];
    }
    if (op.produced.length === 0) return [head];
    if (op.produced.length === 1) return [head, ...render(op.produced[0] as string, indent, depth + 1)];
    const lines = [head];
    for (const child of op.produced) {
      const sub = render(child, `${indent}  `, depth + 1);
      const first = sub[0] ?? `${indent}  sorry`;
      lines.push(`${indent}· ${first.slice(indent.length + 2)}`, ...sub.slice(1));
    }
    return lines;
  };
  const header = input.imports.filter((m) => m !== 'Init').map((m) => `import ${m}`);
  const body = input.rootGoal !== undefined ? render(input.rootGoal, '  ', 0) : ['  sorry'];
  const note = input.openGoals > 0 ? [`-- unfinished: ${input.openGoals} open goal${input.openGoals === 1 ? '' : 's'}, each marked \`sorry\``] : [];
  return [...header, ...(header.length > 0 ? [''] : []), ...note, `theorem ${input.theoremName} : ${input.statement} := by`, ...body, ''].join('\n');
}
