import { useState } from 'react';
import { type EquationView, flattenTerm, type TermNode } from '../../shared/equational/term-view.ts';

function Outline({ root, cursor, onPick }: { root: TermNode; cursor: string | null; onPick: (position: string) => void }) {
  return (
    <ol className="eq-outline">
      {flattenTerm(root).map(({ node, depth }) => (
        <li key={node.position} className={`eq-node ${node.kind}${node.position === cursor ? ' cursor' : ''}`} style={{ paddingLeft: `${depth * 14}px` }}
          data-testid="eq-node" data-position={node.position} title={node.text} onClick={() => onPick(node.position)}>
          <span className="eq-pos">{node.position}</span> <span className="eq-sym">{node.symbol}</span>
          {node.children.length > 0 && <span className="eq-sub muted">{node.text}</span>}
        </li>
      ))}
    </ol>
  );
}

/**
 * An equation goal's two sides as term outlines with AIMLEAP positions (`side.path`, the positions
 * `RULE name@side.path` takes). Clicking a node puts the cursor there and shows the command form.
 */
export function EquationTrees({ view }: { view: EquationView }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const pick = (p: string) => setCursor((c) => (c === p ? null : p));
  return (
    <div className="eq-trees" data-testid="eq-trees">
      <div className="eq-side"><div className="eq-side-head">left (1)</div><Outline root={view.lhs} cursor={cursor} onPick={pick} /></div>
      <div className="eq-side"><div className="eq-side-head">right (2)</div><Outline root={view.rhs} cursor={cursor} onPick={pick} /></div>
      <div className="eq-cursor muted" data-testid="eq-cursor">
        {cursor ? <>cursor <code>{cursor}</code>: <code>RULE name@{cursor}</code> rewrites here</> : 'click a node to place the cursor'}
      </div>
    </div>
  );
}
