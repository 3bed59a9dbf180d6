/**
 * A shallow reading of a Coq proposition's top-level structure (binders, connectives, relations), for
 * `get_goal_structure`. It only needs to be right about the outer shape: everything it does not know
 * is an application or an atom, printed as written.
 */
export type TermShape =
  | { kind: 'forall' | 'exists' | 'fun'; binders: string; body: TermShape }
  | { kind: 'implies' | 'iff' | 'or' | 'and'; parts: TermShape[] }
  | { kind: 'not'; arg: TermShape }
  | { kind: 'relation'; op: string; lhs: TermShape; rhs: TermShape }
  | { kind: 'application'; head: string; args: string[] }
  | { kind: 'atom'; text: string };

const CONNECTIVES: readonly { op: string; kind: 'implies' | 'iff' | 'or' | 'and' }[] = [
  { op: '->', kind: 'implies' }, { op: '<->', kind: 'iff' }, { op: '\\/', kind: 'or' }, { op: '/\\', kind: 'and' },
];
const RELATIONS = ['<>', '<=', '>=', '=', '<', '>'];
// Longest first, so `<->` is never read as `<` and `->`.
const OPERATORS = ['<->', '<=?', '<?', '=?', '->', '<-', '/\\', '\\/', '<>', '<=', '>=', '=>', ':=', '==', '=', '<', '>', ','];
const OPEN = '([{';
const CLOSE = ')]}';

interface Token { kind: 'op' | 'text'; text: string }

export function termShape(text: string, depth = 0): TermShape {
  const t = stripParens(text.trim());
  if (depth > 12) return { kind: 'atom', text: t };
  const binder = /^(forall|exists|fun)\b/.exec(t);
  if (binder) {
    const kind = binder[1] as 'forall' | 'exists' | 'fun';
    const tokens = topTokens(t.slice(kind.length), false);
    const sep = kind === 'fun' ? '=>' : ',';
    const i = tokens.findIndex((k) => k.kind === 'op' && k.text === sep);
    if (i >= 0) {
      return {
        kind,
        binders: joinTokens(tokens.slice(0, i)).trim(),
        body: termShape(joinTokens(tokens.slice(i + 1)), depth + 1),
      };
    }
    return { kind: 'atom', text: t };
  }
  const tokens = topTokens(t, true);
  for (const { op, kind } of CONNECTIVES) {
    const parts = splitOn(tokens, op);
    if (parts.length > 1) return { kind, parts: parts.map((p) => termShape(p, depth + 1)) };
  }
  if (t.startsWith('~')) return { kind: 'not', arg: termShape(t.slice(1), depth + 1) };
  for (const op of RELATIONS) {
    const i = tokens.findIndex((k) => k.kind === 'op' && k.text === op);
    if (i >= 0) {
      return { kind: 'relation', op, lhs: termShape(joinTokens(tokens.slice(0, i)), depth + 1), rhs: termShape(joinTokens(tokens.slice(i + 1)), depth + 1) };
    }
  }
  const words = topWords(t);
  if (words.length > 1 && /^[A-Za-z_@][\w'.@]*$/.test(words[0] as string)) {
    return { kind: 'application', head: words[0] as string, args: words.slice(1) };
  }
  return { kind: 'atom', text: t };
}

/** Names of the shape's top node, for one-line summaries: `equality (=)`, `implication`, … */
export function shapeName(shape: TermShape): string {
  switch (shape.kind) {
    case 'forall': return 'universal (forall)';
    case 'exists': return 'existential (exists)';
    case 'fun': return 'function (fun)';
    case 'implies': return 'implication (->)';
    case 'iff': return 'equivalence (<->)';
    case 'or': return 'disjunction (\\/)';
    case 'and': return 'conjunction (/\\)';
    case 'not': return 'negation (~)';
    case 'relation': return shape.op === '=' ? 'equality (=)' : shape.op === '<>' ? 'disequality (<>)' : `relation (${shape.op})`;
    case 'application': return `application of ${shape.head}`;
    case 'atom': return 'atom';
  }
}

/** An indented outline of the shape, at most `maxDepth` levels deep. */
export function outlineShape(shape: TermShape, indent = '  ', maxDepth = 5): string[] {
  const out: string[] = [];
  const walk = (s: TermShape, pad: string, level: number): void => {
    if (level >= maxDepth) {
      out.push(`${pad}…`);
      return;
    }
    switch (s.kind) {
      case 'forall':
      case 'exists':
      case 'fun':
        out.push(`${pad}${s.kind} ${s.binders}${s.kind === 'fun' ? ' =>' : ','}`);
        walk(s.body, pad + indent, level + 1);
        return;
      case 'implies':
        out.push(`${pad}${shapeName(s)}`);
        s.parts.forEach((p, i) => {
          out.push(`${pad}${indent}${i < s.parts.length - 1 ? `premise ${i + 1}` : 'conclusion'}: ${render(p)}`);
          if (p.kind !== 'atom' && p.kind !== 'application') walk(p, pad + indent + indent, level + 2);
        });
        return;
      case 'iff':
      case 'or':
      case 'and':
        out.push(`${pad}${shapeName(s)} of ${s.parts.length}`);
        s.parts.forEach((p) => walk(p, pad + indent, level + 1));
        return;
      case 'not':
        out.push(`${pad}${shapeName(s)}`);
        walk(s.arg, pad + indent, level + 1);
        return;
      case 'relation':
        out.push(`${pad}${shapeName(s)}`, `${pad}${indent}lhs: ${render(s.lhs)}`, `${pad}${indent}rhs: ${render(s.rhs)}`);
        return;
      case 'application':
        out.push(`${pad}${render(s)}  [${shapeName(s)}]`);
        return;
      case 'atom':
        out.push(`${pad}${s.text}`);
        return;
    }
  };
  walk(shape, indent, 0);
  return out;
}

/** The shape printed back as a term (close to, not always equal to, the input text). */
export function render(s: TermShape): string {
  switch (s.kind) {
    case 'forall':
    case 'exists': return `${s.kind} ${s.binders}, ${render(s.body)}`;
    case 'fun': return `fun ${s.binders} => ${render(s.body)}`;
    case 'implies':
    case 'iff':
    case 'or':
    case 'and': {
      const op = CONNECTIVES.find((c) => c.kind === s.kind)?.op ?? '?';
      return s.parts.map((p) => wrap(p)).join(` ${op} `);
    }
    case 'not': return `~ ${wrap(s.arg)}`;
    case 'relation': return `${render(s.lhs)} ${s.op} ${render(s.rhs)}`;
    case 'application': return [s.head, ...s.args].join(' ');
    case 'atom': return s.text;
  }
}

function wrap(s: TermShape): string {
  return s.kind === 'atom' || s.kind === 'application' || s.kind === 'relation' ? render(s) : `(${render(s)})`;
}

/** Identifiers in a term (for hypothesis dependencies); binder-bound names are included, harmlessly. */
export function identifiers(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z_][\w']*/g) ?? []);
}

function stripParens(t: string): string {
  let s = t;
  while (s.startsWith('(') && s.endsWith(')') && matchingClose(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  return s;
}

function matchingClose(s: string, at: number): number {
  let depth = 0;
  for (let i = at; i < s.length; i++) {
    const c = s[i] as string;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c) && --depth === 0) return i;
  }
  return -1;
}

/**
 * Splits a term into depth-0 operator and text tokens. With `stopAtBinder`, a depth-0 `forall`, `exists`,
 * `fun`, `let`, `if` or `match` swallows the rest (it extends as far right as possible).
 */
function topTokens(t: string, stopAtBinder: boolean): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let depth = 0;
  let i = 0;
  const flush = (): void => {
    if (text !== '') tokens.push({ kind: 'text', text });
    text = '';
  };
  while (i < t.length) {
    const c = t[i] as string;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    if (depth === 0) {
      if (stopAtBinder && /[\s(]/.test(t[i - 1] ?? ' ') && /^(forall|exists|fun|let|if|match)\b/.test(t.slice(i))) {
        text += t.slice(i);
        break;
      }
      const op = OPERATORS.find((o) => t.startsWith(o, i));
      if (op !== undefined) {
        flush();
        tokens.push({ kind: 'op', text: op });
        i += op.length;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return tokens;
}

function joinTokens(tokens: readonly Token[]): string {
  return tokens.map((k) => (k.kind === 'op' ? ` ${k.text} ` : k.text)).join('').replace(/\s+/g, ' ').trim();
}

function splitOn(tokens: readonly Token[], op: string): string[] {
  const parts: Token[][] = [[]];
  for (const k of tokens) {
    if (k.kind === 'op' && k.text === op) parts.push([]);
    else parts[parts.length - 1]?.push(k);
  }
  return parts.map(joinTokens);
}

/** Depth-0 words (an application's head and arguments). */
function topWords(t: string): string[] {
  const words: string[] = [];
  let word = '';
  let depth = 0;
  for (const c of t) {
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    if (depth === 0 && /\s/.test(c)) {
      if (word) words.push(word);
      word = '';
    } else word += c;
  }
  if (word) words.push(word);
  return words;
}
