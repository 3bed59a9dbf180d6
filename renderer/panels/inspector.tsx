import type { ContextEntry } from '../../shared/proof-tree/proof-state.ts';
import { mostlyChanged, sidesOf, stepDiff } from '../../shared/tree-diff/goal-diff.ts';
import type { TextPart } from '../../shared/tree-diff/text-diff.ts';
import { accumulatedContext, currentGoalNode, findNode, pathTo } from '../../shared/proof-tree/tree-view-queries.ts';
import { parseEquationView, usesAimOperators } from '../../shared/equational/term-view.ts';
import { selectAppInfo } from '../store/channels-slice.ts';
import { lineOfStep, selectActiveCheck } from '../store/checking-slice.ts';
import { EquationTrees } from './equation-trees.tsx';
import { selectActiveMeaning, selectActiveScript, selectSelectedId } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectDisplayedStep, selectOverlay, selectPreviousTree, selectShowsDocument, selectShownTree } from '../store/tree-selectors.ts';
import { useMemo } from 'react';
import { flowOf, hypothesisUses } from '../../shared/derivation/hypothesis-flow.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { saveReproductionScript } from '../services/workbench.ts';

function Entry({ e, mark }: { e: ContextEntry; mark?: 'added' | 'changed' }) {
  return (
    <li className={`ctx-entry ${e.kind}${mark ? ` ${mark}` : ''}`}>
      <span className="ctx-name">{e.name}</span> <span className="ctx-colon">:</span> <span className="ctx-text">{e.text}</span>
    </li>
  );
}

/** A derivation node's id reads as `step.goal` (the goal the step made); others as they are. */
const nodeLabel = (id: number): string => (id >= 2 ** 20 ? `${Math.floor(id / 2 ** 20)}.${id % 2 ** 20}` : String(id));

const clip = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/**
 * Where a hypothesis entered, as a link text: the step that made that goal, named by its own command (the
 * one that acted on the goal's parent) — not by the command that later acted on the goal itself.
 */
export function describeEntry(tree: TreeView, id: number): string {
  const path = pathTo(tree, id);
  const n = path.at(-1);
  if (!n) return `#${id}`;
  const maker = path.slice(0, -1).reverse().find((p) => p.action)?.action;
  if (path.length === 1) return clip(`the statement (${n.goal ?? 'GOAL'})`);
  return clip(maker ? `step ${n.step} (${maker})` : `step ${n.step}`);
}

/** The step that used a hypothesis, as a link text: the command that acted on that goal. */
export function describeUse(tree: TreeView, id: number): string {
  const n = findNode(tree, id);
  if (!n) return `#${id}`;
  return clip(n.action ? `${n.action} (on the goal of step ${n.step})` : n.goal ?? `#${id}`);
}

function Parts({ parts }: { parts: TextPart[] }) {
  return <>{parts.map((p, i) => <span key={i} className={`diff-${p.kind}`}>{p.text}</span>)}</>;
}

/**
 * The selected node (else the current goal): its full accumulated context and goal, where it came from,
 * and what the last step changed (hypotheses added/removed/changed, changed goal parts highlighted).
 */
export function Inspector() {
  const tree = useArbor(selectShownTree);
  const previous = useArbor(selectPreviousTree);
  const step = useArbor(selectDisplayedStep);
  const showsDocument = useArbor(selectShowsDocument);
  const overlay = useArbor(selectOverlay);
  const script = useArbor(selectActiveScript);
  const meaning = useArbor(selectActiveMeaning);
  const selected = useArbor(selectSelectedId);
  const check = useArbor(selectActiveCheck);
  const backend = useArbor(selectAppInfo)?.backend;
  const node = tree ? (selected !== null ? findNode(tree, selected) : undefined) ?? currentGoalNode(tree) ?? tree : undefined;
  const finished = tree?.kind === 'bundle' && (tree.children?.length ?? 0) === 0;
  const context = useMemo(() => (tree && node ? accumulatedContext(tree, node.id) : []), [tree, node]);
  // No diff for a proof's first state: there is nothing before it to compare with.
  // Equation goals (the eq backend's, or any goal that reads as an AIM equation) also show as term trees.
  const equation = useMemo(() => (node?.kind === 'leaf' && node.goal ? parseEquationView(node.goal) : undefined), [node]);
  const diff = useMemo(() => (tree && previous && step !== undefined ? stepDiff(previous, tree, step) : undefined), [previous, tree, step]);
  // Derivation view: where the node's hypotheses went, and where the ones it used came from.
  const uses = useMemo(() => (tree ? hypothesisUses(tree) : []), [tree]);
  const flow = node && uses.length > 0 ? flowOf(uses, node.id) : undefined;
  if (!tree || !node) return <aside className="inspector" data-testid="inspector"><h3>Inspector</h3><p className="muted">Select a node in the tree.</p></aside>;
  const change = diff?.produced.find((p) => p.id === node.id);
  const added = new Set(change?.context.added.map((e) => `${e.kind}:${e.name}`));
  const changed = new Set(change?.context.changed.map((e) => `${e.kind}:${e.name}`));
  const line = showsDocument ? lineOfStep(check, node.step) : undefined;
  const status = node.givenUp ? 'given-up' : finished ? 'proved' : node.current === 'goal' && overlay ? overlay : node.status;
  return (
    <aside className="inspector" data-testid="inspector">
      <h3>{finished ? 'Proof complete' : node.kind === 'leaf' ? 'Goal' : 'Bundle'} <span className="muted">#{nodeLabel(node.id)}</span> <span className={`status-badge ${status}`} data-testid="inspector-status">{status}</span>{node.current && <span className="status-badge current">current {node.current}</span>}</h3>
      <div className="origin">made by step {node.step}{line !== undefined ? <> — <button type="button" className="link" data-testid="origin-line">line {line}</button></> : null}</div>
      <h4>Context ({context.length})</h4>
      {context.length === 0 ? <p className="muted">empty</p> : (
        <ul className="ctx-list" data-testid="inspector-context">
          {context.map((e) => {
            const key = `${e.kind}:${e.name}`;
            const mark = added.has(key) ? 'added' : changed.has(key) ? 'changed' : undefined;
            return <Entry key={key} e={e} {...(mark ? { mark } : {})} />;
          })}
        </ul>
      )}
      {flow && (flow.enters.length > 0 || flow.uses.length > 0) && (
        <div className="hyp-flow" data-testid="hyp-flow">
          {flow.uses.map((u) => (
            <div key={`u${u.name}`} data-testid="hyp-used">
              uses <code className="hyp-name">{u.name}</code>, which {u.from === node.id
                ? 'entered with this goal'
                : <>entered at{' '}<button type="button" className="link" data-testid="hyp-from-link" onClick={() => useArbor.getState().revealNode(u.from)}>{describeEntry(tree, u.from)}</button></>}
            </div>
          ))}
          {flow.enters.map((u, i) => (
            <div key={`e${u.name}${i}`} data-testid="hyp-enters">
              <code className="hyp-name">{u.name}</code> enters here; used by{' '}
              <button type="button" className="link" data-testid="hyp-to-link" onClick={() => useArbor.getState().revealNode(u.to)}>{describeUse(tree, u.to)}</button>
            </div>
          ))}
        </div>
      )}
      {!finished && <h4>{node.kind === 'leaf' ? 'Goal' : 'Subgoals'}</h4>}
      {finished ? null : node.kind === 'leaf'
        ? <pre className="goal-text" data-testid="inspector-goal">{change ? <Parts parts={change.goal.filter((p) => p.kind !== 'removed')} /> : node.goal}</pre>
        : <ol className="subgoals">{(node.children ?? []).map((c) => <li key={c.id}>{c.kind === 'leaf' ? c.goal : `bundle of ${c.children?.length ?? 0}`}</li>)}</ol>}
      {!finished && equation && (backend === 'eq' || usesAimOperators(equation)) && <EquationTrees view={equation} />}
      {finished && showsDocument && meaning !== undefined && (
        // Nobody may read "proved" without what was proved when the text means something else here (issue 21).
        <div className="meaning-warning" data-testid="inspector-meaning">
          <h4>What Coq proved differs from the text</h4>
          <div>Coq proved: <code>{meaning.elaborated}</code></div>
          <div>{meaning.clean === null ? 'In a clean environment the text does not elaborate.' : <>In a clean environment the text reads: <code>{meaning.clean}</code></>}</div>
          <ul>{meaning.differences.map((d) => <li key={d}>{d}</li>)}</ul>
        </div>
      )}
      {finished && showsDocument && script !== undefined && (
        <>
          <h4>Reproduction script</h4>
          <pre className="script" data-testid="script">{script}</pre>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(script)}>Copy</button>{' '}
          <button type="button" title="Save as the file the prover checks alone (.v, .thy, .lean)" onClick={() => saveReproductionScript(script)} data-testid="save-script">Save script</button>
        </>
      )}
      {diff && (
        <>
          <h4>Last step (step {step})</h4>
          <div className="step-diff" data-testid="step-diff">
            {diff.actedOn && <div>acted on: <code>{diff.actedOn.goal}</code></div>}
            {diff.closed ? <div className="muted">closed or proved that goal</div> : <div>produced {diff.produced.length} goal{diff.produced.length === 1 ? '' : 's'}</div>}
            {change && (
              <>
                {change.context.added.map((e) => <div key={`a${e.name}`} className="diff-added">+ {e.name} : {e.text}</div>)}
                {change.context.removed.map((e) => <div key={`r${e.name}`} className="diff-removed">− {e.name} : {e.text}</div>)}
                {change.context.changed.map((e) => <div key={`c${e.name}`} className="diff-changed">~ {e.name} : {e.before} → {e.after}</div>)}
                {mostlyChanged(change.goal) ? (
                  <div className="goal-diff stacked" data-testid="goal-diff-stacked">
                    <div className="diff-removed">before: {sidesOf(change.goal).before}</div>
                    <div className="diff-added">after: {sidesOf(change.goal).after}</div>
                  </div>
                ) : <div className="goal-diff">goal: <Parts parts={change.goal} /></div>}
              </>
            )}
          </div>
        </>
      )}
    </aside>
  );
}
