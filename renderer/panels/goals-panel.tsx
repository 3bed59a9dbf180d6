import { useEffect, useMemo } from 'react';
import type { Hypothesis, Variable } from '../../shared/proof-tree/proof-state.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { GoalInContext } from '../../shared/proof-tree/tree-view-queries.ts';
import { isFinishedView, openGoals } from '../../shared/proof-tree/tree-view-queries.ts';
import { selectPanelGoals } from '../store/v-file-goals.ts';
import { useArbor } from '../store/store.ts';
import { perf } from '../services/workbench.ts';

type Names = ReadonlyMap<string, string>;

/** `name : type` for every variable and hypothesis of a goal (what hover shows). */
function namesOf(g: GoalInContext): Names {
  const m = new Map<string, string>();
  for (const v of g.vars) m.set(v.name, v.type);
  for (const h of g.hyps) m.set(h.name, h.expr);
  return m;
}

/** A term with every local name in it hoverable: its type (or proposition) as the tooltip. */
export function TermText({ text, names }: { text: string; names: Names }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/[A-Za-z_][\w']*/g)) {
    const type = names.get(m[0]);
    if (type === undefined) continue;
    const at = m.index;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(<span key={at} className="local-name" data-testid="local-name" title={`${m[0]} : ${type}`}>{m[0]}</span>);
    last = at + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

function Context({ g, fresh }: { g: GoalInContext; fresh?: ReadonlySet<string> }) {
  const names = namesOf(g);
  const row = (kind: 'var' | 'hyp', name: string, text: string) => (
    <li key={`${kind}:${name}`} className={`ctx-entry ${kind}${fresh?.has(`${name}:${text}`) ? ' added' : ''}`} data-testid="cursor-hyp">
      <span className="ctx-name" title={`${name} : ${text}`}>{name}</span> <span className="ctx-colon">:</span> <span className="ctx-text"><TermText text={text} names={names} /></span>
    </li>
  );
  return (
    <ul className="ctx-list">
      {g.vars.map((v: Variable) => row('var', v.name, v.type))}
      {g.hyps.map((h: Hypothesis) => row('hyp', h.name, h.expr))}
    </ul>
  );
}

/** One proof state: its open goals, the first (the current one) with its context. */
function State({ tree, label, previous, testid, notProved }: { tree: TreeView | null | undefined; label: string; previous?: TreeView | null | undefined; testid: string; notProved?: string | undefined }) {
  const goals = useMemo(() => (tree ? openGoals(tree) : []), [tree]);
  const fresh = useMemo(() => {
    // Hypotheses the line made: marked, as coq-lsp marks a goal's changes.
    const before = previous ? openGoals(previous)[0] : undefined;
    if (!before || !goals[0]) return undefined;
    const had = new Set([...before.vars.map((v) => `${v.name}:${v.type}`), ...before.hyps.map((h) => `${h.name}:${h.expr}`)]);
    return new Set([...goals[0].vars.map((v) => `${v.name}:${v.type}`), ...goals[0].hyps.map((h) => `${h.name}:${h.expr}`)].filter((k) => !had.has(k)));
  }, [previous, goals]);
  let body: React.ReactNode;
  if (tree === undefined) body = <p className="muted">asking the host for this step…</p>;
  else if (tree === null) body = <p className="muted">no proof in progress</p>;
  else if (notProved && openGoals(tree).length === 0) body = <p className="muted" data-testid={`${testid}-not-proved`}>{notProved}</p>;
  else if (isFinishedView(tree)) body = <p className="proved-note" data-testid={`${testid}-done`}>no goals: the proof is complete</p>;
  else if (goals.length === 0) body = <p className="proved-note" data-testid={`${testid}-done`}>no open goals: the goal is proved (END or NEXT takes it off)</p>;
  else {
    const [first, ...rest] = goals as [GoalInContext, ...GoalInContext[]];
    body = (
      <>
        <div className="muted">{goals.length} goal{goals.length === 1 ? '' : 's'}</div>
        <Context g={first} {...(fresh ? { fresh } : {})} />
        <div className="goal-rule" />
        <pre className="goal-text" data-testid={`${testid}-goal`}><TermText text={first.goal} names={namesOf(first)} /></pre>
        {rest.map((g, i) => (
          <pre key={g.id} className="goal-text other-goal" title={`goal ${i + 2}`}><span className="muted">{i + 2}. </span><TermText text={g.goal} names={namesOf(g)} /></pre>
        ))}
      </>
    );
  }
  return (
    <section className="cursor-state" data-testid={testid}>
      <h4>{label}</h4>
      {body}
    </section>
  );
}

/**
 * Goals at the cursor (as coq-lsp, VsRocq and Lean's infoview): the state before and after the command on
 * the editor's line, for any checked line of any item, read from the trees already here. Local names in
 * hypotheses and goals show their type on hover.
 */
export function GoalsPanel() {
  const g = useArbor(selectPanelGoals);
  // The goals-at-cursor benchmark reads when the panel showed a line (bench/goals-at-cursor.bench.ts).
  useEffect(() => {
    if (g.kind === 'none') return;
    // The next frame's start: the DOM has the new goals, and the paint that shows them follows.
    const line = g.line;
    const id = requestAnimationFrame(() => { perf().goalsShown = { line, at: performance.now() }; });
    return () => cancelAnimationFrame(id);
  }, [g]);
  let content: React.ReactNode;
  switch (g.kind) {
    case 'none':
      content = <p className="muted">Put the cursor on a checked line to see the goals before and after it.</p>;
      break;
    case 'unchecked':
      content = (
        <>
          <p className="muted">Line {g.line} is not checked yet{g.checkedThrough > 0 ? ` (checked through line ${g.checkedThrough})` : ''}: ▶| To cursor (Ctrl+Alt+Enter) checks it.</p>
          {g.checkedThrough > 0 && <State tree={g.before} label={`Goals after line ${g.checkedThrough}`} testid="cursor-before" />}
        </>
      );
      break;
    case 'failed':
      content = (
        <>
          <div className="cursor-error" data-testid="cursor-error">✗ {g.error.split('\n')[0]}</div>
          <State tree={g.before} label="Goals (the line ran on)" testid="cursor-before" />
        </>
      );
      break;
    case 'between':
      content = <State tree={g.after} label={`Goals (after line ${g.entry.line})`} testid="cursor-after" notProved={g.notProved} />;
      break;
    case 'checked':
      content = (
        <>
          <State tree={g.before} label="Before" testid="cursor-before" />
          <State tree={g.after} previous={g.before} label="After" testid="cursor-after" notProved={g.notProved} />
        </>
      );
      break;
  }
  return (
    <div className="goals-panel" data-testid="goals-panel" data-line={g.kind === 'none' ? '' : String(g.line)}>
      <h3>Goals {g.kind !== 'none' && <span className="muted">at line {g.line}{g.kind === 'checked' ? <> · <code>{short(g.entry.text.trim())}</code></> : null}</span>}</h3>
      {content}
    </div>
  );
}

const short = (t: string): string => (t.length > 60 ? `${t.slice(0, 59)}…` : t);
