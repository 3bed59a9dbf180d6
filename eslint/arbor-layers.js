// The layer map as an allow-list (house style 1, in the manner of VS Code's `code-import-patterns`): every source
// file belongs to exactly one unit, each unit lists the units it may import, a file that matches no unit is an
// error, and the map itself must have no cycle (checked when ESLint loads this file).
import { dirname, relative, resolve } from 'node:path';

/** Units from the most specific path to the least; a file belongs to the first whose prefix it has. */
export const UNITS = {
  // shared/: pure TypeScript, runs anywhere.
  'shared/proof-tree': [],
  'shared/protocol': ['shared/proof-tree'],
  'shared/tree-layout': ['shared/proof-tree'],
  'shared/tree-diff': ['shared/proof-tree'],
  'shared/derivation': ['shared/proof-tree', 'shared/protocol', 'shared/tree-layout'],
  'shared/checking': ['shared/protocol'],
  'shared/agent': ['shared/checking', 'shared/protocol'],
  'shared/equational': [],
  'shared/language': ['shared/protocol'],
  'shared/transcript': ['shared/derivation', 'shared/proof-tree', 'shared/protocol'],
  'shared/settings': [],
  'shared/scripts': [],
  'shared/project': [],
  'shared/fidelity': ['shared/protocol', 'shared/tree-diff'],
  'shared/batch': ['shared/fidelity'],
  'shared/api': ['shared/agent', 'shared/checking', 'shared/derivation', 'shared/fidelity', 'shared/proof-tree', 'shared/protocol', 'shared/settings', 'shared/project'],
  // main/: Node services, lowest first.
  'main/process': ['shared/settings'],
  'main/shell': ['main/process', 'shared/derivation', 'shared/proof-tree', 'shared/protocol'],
  // HAMMER's pipeline: below the Coq session, which it reaches only through its port (hammer/hammer-port.ts).
  'main/provers/coq/hammer': ['main/shell', 'shared/proof-tree', 'shared/protocol'],
  'main/provers/coq': ['main/process', 'main/shell', 'main/provers/coq/hammer', 'shared/derivation', 'shared/proof-tree', 'shared/protocol'],
  'main/provers/eq': ['main/process', 'main/shell', 'shared/equational', 'shared/proof-tree', 'shared/protocol'],
  'main/provers/isabelle': ['main/process', 'main/shell', 'shared/proof-tree', 'shared/protocol', 'shared/scripts'],
  'main/provers/lean': ['main/process', 'main/shell', 'shared/proof-tree', 'shared/protocol'],
  'main/provers/external': ['main/process', 'main/shell', 'shared/proof-tree', 'shared/protocol'],
  'main/fidelity': ['main/process', 'main/shell', 'main/provers/coq', 'shared/fidelity', 'shared/protocol'],
  'main/supervisor': ['main/process', 'main/shell', 'main/provers/coq', 'main/provers/eq', 'main/provers/isabelle', 'main/provers/lean', 'main/provers/external', 'main/fidelity', 'shared/settings'],
  'main/batch': ['main/process', 'main/shell', 'main/provers/eq', 'main/fidelity', 'main/supervisor', 'shared/batch', 'shared/fidelity', 'shared/protocol'],
  'main/agent': ['main/shell', 'main/provers/eq', 'main/fidelity', 'main/supervisor', 'shared/agent', 'shared/api', 'shared/fidelity', 'shared/proof-tree', 'shared/protocol'],
  'main/host': ['main/process', 'main/shell', 'main/provers/coq', 'main/provers/eq', 'main/provers/isabelle', 'main/provers/lean', 'main/fidelity', 'main/supervisor', 'main/agent', 'shared/agent', 'shared/api', 'shared/checking', 'shared/derivation', 'shared/project', 'shared/proof-tree', 'shared/protocol', 'shared/settings'],
  'main/cli': ['shared/settings', 'main/process', 'main/shell', 'main/provers/eq', 'main/provers/isabelle', 'main/fidelity', 'main/supervisor', 'main/batch', 'main/agent', 'main/host', 'shared/protocol'],
  'main/app': ['main/host', 'shared/api'],
  // preload/: the one small typed API.
  preload: ['shared/api'],
  // renderer/: React + zustand, lowest first.
  'renderer/store': ['shared/agent', 'shared/api', 'shared/checking', 'shared/derivation', 'shared/fidelity', 'shared/project', 'shared/proof-tree', 'shared/protocol', 'shared/transcript'],
  'renderer/services': ['renderer/store', 'shared/agent', 'shared/api', 'shared/checking', 'shared/derivation', 'shared/language', 'shared/proof-tree', 'shared/protocol', 'shared/scripts', 'shared/transcript', 'shared/tree-layout'],
  'renderer/editor': ['renderer/store', 'renderer/services', 'shared/language', 'shared/proof-tree', 'shared/protocol'],
  'renderer/tree': ['renderer/store', 'renderer/services', 'shared/derivation', 'shared/proof-tree', 'shared/transcript', 'shared/tree-layout'],
  'renderer/panels': ['renderer/store', 'renderer/services', 'renderer/editor', 'shared/agent', 'shared/api', 'shared/derivation', 'shared/equational', 'shared/fidelity', 'shared/project', 'shared/proof-tree', 'shared/protocol', 'shared/settings', 'shared/transcript', 'shared/tree-diff'],
  'renderer/app': ['renderer/store', 'renderer/services', 'renderer/editor', 'renderer/tree', 'renderer/panels', 'shared/api', 'shared/language'],
  renderer: ['renderer/app', 'renderer/services'],
  // Around the product: tests end to end and benchmarks drive main/ and shared/ as a user of them would.
  e2e: ['main/*', 'shared/*'],
  bench: ['e2e', 'main/*', 'shared/*'],
  // Scripts that make committed fixtures (a transcript from a real MCP client).
  fixtures: [],
  // Tooling: the command shims, this lint, and the configuration files at the top of the repository.
  bin: ['main/cli'],
  eslint: [],
  '.': ['eslint'],
};

/** Test files may reach across main/ (integration tests start real services); the top-level boundaries still hold. */
const TEST_UNITS = { main: ['main/*', 'shared/*'], shared: ['shared/*'], renderer: ['renderer/*', 'shared/*'], preload: ['shared/*'] };

const UNIT_NAMES = Object.keys(UNITS).sort((a, b) => b.length - a.length);

/** The unit a repository-relative path belongs to (`main/provers/coq/x.ts` → `main/provers/coq`). */
export const unitOf = (path) => (path.includes('/') ? UNIT_NAMES.find((u) => u !== '.' && (path === u || path.startsWith(`${u}/`))) : '.');

const allows = (patterns, target) =>
  patterns.some((p) => (p.endsWith('/*') ? target === p.slice(0, -2) || target.startsWith(p.slice(0, -1)) : target === p));

/** A cycle in a layer map (as a list of units), an unknown unit it names (as an error), or undefined. */
export function findCycle(units) {
  const state = new Map();
  const visit = (u, path) => {
    if (state.get(u) === 'done') return undefined;
    if (state.get(u) === 'open') return [...path, u];
    state.set(u, 'open');
    for (const v of units[u] ?? []) {
      if (v.endsWith('/*')) continue;
      if (!(v in units)) throw new Error(`eslint/arbor-layers.js: ${u} lists unknown unit ${v}`);
      const cycle = visit(v, [...path, u]);
      if (cycle) return cycle;
    }
    state.set(u, 'done');
    return undefined;
  };
  for (const u of Object.keys(units)) {
    const cycle = visit(u, []);
    if (cycle) return cycle;
  }
  return undefined;
}
const cycle = findCycle(UNITS);
if (cycle) throw new Error(`eslint/arbor-layers.js: the layer map has a cycle: ${cycle.join(' → ')}`);

const isTest = (path) => /\.test\.tsx?$/.test(path) || /\/(testing|test-fixtures)\//.test(path);

export const layersRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'Imports follow the allow-list layer map in eslint/arbor-layers.js' } },
  create(context) {
    const root = context.cwd;
    const file = relative(root, context.filename).split('\\').join('/');
    const unit = unitOf(file);
    const test = isTest(file);
    const allowed = test ? TEST_UNITS[file.split('/')[0]] ?? ['main/*', 'shared/*'] : UNITS[unit];
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = relative(root, resolve(dirname(context.filename), specifier)).split('\\').join('/');
      const targetUnit = unitOf(target);
      if (targetUnit === unit) return;
      if (targetUnit === undefined) {
        context.report({ node, message: `${file} imports ${target}, which belongs to no unit of the layer map (eslint/arbor-layers.js).` });
        return;
      }
      if (test && unit !== undefined && targetUnit.startsWith(`${unit}/`)) return;
      if (!allows(allowed ?? [], targetUnit)) {
        context.report({ node, message: `${unit ?? file} may not import ${targetUnit} (allowed: ${(allowed ?? []).join(', ') || 'nothing outside itself'}; see eslint/arbor-layers.js).` });
      }
    };
    return {
      Program(node) {
        if (unit === undefined && !test) context.report({ node, message: `${file} belongs to no unit of the layer map: add its folder to eslint/arbor-layers.js.` });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
