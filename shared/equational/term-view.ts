/**
 * AIM equation goals (`s = t`) as trees for display: operator nodes `*` `\` `/`, the identity `e`,
 * the defined operations `K T L R a` and names (goal variables or constants), each labelled with its
 * AIMLEAP-style position `side.path` (side 1 = left, 2 = right; path = 1-based argument indices), the
 * same positions `RULE name@side.path` takes. Parsed with the ARTICLE syntax the eq backend uses.
 */
import type { AimSyntax } from './aim-syntax.ts';
import { AimSyntaxError, parseAimEquation } from './aim-syntax.ts';

export interface TermNode {
  /** `*`, `\`, `/`, `e`, `K`, `T`, `L`, `R`, `a`, or a name. */
  symbol: string;
  kind: 'infix' | 'operation' | 'identity' | 'name';
  children: TermNode[];
  /** `side.path`, e.g. `1.2.1`. */
  position: string;
  /** The subterm printed in the ARTICLE syntax. */
  text: string;
}

export interface EquationView {
  lhs: TermNode;
  rhs: TermNode;
}

function print(n: TermNode): string {
  if (n.kind === 'infix') return `${nestedText(n.children[0])} ${n.symbol} ${nestedText(n.children[1])}`;
  if (n.kind === 'operation') return `${n.symbol}(${n.children.map((c) => c.text).join(',')})`;
  return n.symbol;
}

// Children's `text` is unparenthesised; an infix child inside an infix parent needs brackets.
const nestedText = (c: TermNode | undefined): string => (c ? (c.kind === 'infix' ? `(${c.text})` : c.text) : '');

/** The syntax tree labelled with positions (`side.path`) and each subterm's text. */
function view(syntax: AimSyntax, position: string): TermNode {
  const children = syntax.args.map((a, i) => view(a, `${position}.${i + 1}`));
  const n: TermNode = { symbol: syntax.symbol, kind: syntax.kind, children, position, text: '' };
  n.text = print(n);
  return n;
}

/** The equation `s = t` as two trees, or undefined when the text is not an AIM equation. */
export function parseEquationView(text: string): EquationView | undefined {
  try {
    const { lhs, rhs } = parseAimEquation(text);
    return { lhs: view(lhs, '1'), rhs: view(rhs, '2') };
  } catch (err) {
    if (err instanceof AimSyntaxError) return undefined;
    throw err;
  }
}

/** The node at `side.path`, if there is one. */
export function nodeAt(view: EquationView, position: string): TermNode | undefined {
  const [side, ...path] = position.split('.').map(Number);
  let n: TermNode | undefined = side === 1 ? view.lhs : side === 2 ? view.rhs : undefined;
  for (const i of path) n = n?.children[i - 1];
  return n;
}

/** Every node of a tree, preorder (root first), with its depth. */
export function flattenTerm(root: TermNode): { node: TermNode; depth: number }[] {
  const out: { node: TermNode; depth: number }[] = [];
  const walk = (n: TermNode, depth: number): void => {
    out.push({ node: n, depth });
    n.children.forEach((c) => walk(c, depth + 1));
  };
  walk(root, 0);
  return out;
}

/** Whether either side has an operator (not just names): other backends' `x = y` goals are not worth a tree. */
export const usesAimOperators = (view: EquationView): boolean => view.lhs.kind !== 'name' || view.rhs.kind !== 'name';
