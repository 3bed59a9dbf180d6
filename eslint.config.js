import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Layering (house style 1): shared/ runs anywhere; main, preload and renderer import shared, never each other;
// only main/app may import electron.
const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'child_process', 'os', 'net', 'http', 'https', 'stream', 'events', 'util', 'crypto', 'url', 'worker_threads', 'readline', 'zlib', 'process', 'buffer'];
const restrict = (groups, message) => ({ group: groups, message });

// Layers inside main/ and renderer/ (as VS Code's code-layering): a folder imports only the folders below it.
const mainBase = [
  restrict(['electron'], 'Only main/app may import electron.'),
  restrict(['**/renderer/**', '**/preload/**'], 'main/ never imports renderer/ or preload/.'),
  restrict(['node:child_process', 'child_process'], 'Start processes through main/process/process-manager.ts (one process manager: process groups, temp dirs, death with Arbor).'),
];
// Import specifiers are matched as written: a sibling folder is `../x/…` (from a subfolder `../../x/…`).
const importsOf = (top) => (folder) => [`../${folder}/**`, `../../${folder}/**`, `**/${top}/${folder}/**`];
const MAIN_LAYERS = ['process', 'shell', 'provers', 'fidelity', 'supervisor', 'batch', 'agent', 'host', 'cli'];
const mainLayerRules = MAIN_LAYERS.slice(0, -1).map((layer, i) => ({
  files: [`main/${layer}/**/*.ts`],
  ignores: ['main/**/*.test.ts', 'main/process/**'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [
      ...mainBase,
      restrict([...MAIN_LAYERS.slice(i + 1), 'app'].flatMap(importsOf('main')), `main/${layer} sits below ${MAIN_LAYERS.slice(i + 1).join(', ')}: it never imports them (layers: ${MAIN_LAYERS.join(' < ')}).`),
    ] }],
  },
}));
const rendererBase = [
  restrict(nodeBuiltins, 'The renderer is sandboxed: no Node built-ins.'),
  restrict(['electron'], 'The renderer never imports electron; use the preload API.'),
  restrict(['**/main/**', '**/preload/**'], 'renderer/ never imports main/ or preload/.'),
];
const RENDERER_LAYERS = { store: ['services', 'editor', 'tree', 'panels', 'app'], services: ['editor', 'tree', 'panels', 'app'], editor: ['tree', 'panels', 'app'], tree: ['editor', 'panels', 'app'], panels: ['app'] };
const rendererLayerRules = Object.entries(RENDERER_LAYERS).map(([layer, above]) => ({
  files: [`renderer/${layer}/**/*.{ts,tsx}`],
  ignores: ['renderer/**/*.test.ts'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [
      ...rendererBase,
      restrict(above.flatMap(importsOf('renderer')), `renderer/${layer} never imports ${above.join(', ')} (layers: store < services < editor, tree < panels < app).`),
    ] }],
  },
}));

export default tseslint.config(
  { ignores: ['.tmp/**', 'node_modules/**', 'dist/**', 'out/**', 'e2e/artifacts/**', 'bench/results/**', 'renderer/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(nodeBuiltins, 'shared/ runs anywhere: no Node built-ins.'),
        restrict(['electron'], 'shared/ runs anywhere: no electron.'),
        restrict(['**/main/**', '**/renderer/**', '**/preload/**'], 'shared/ imports nothing of main, preload or renderer.'),
      ] }],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require'],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/app/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: mainBase }],
    },
  },
  // The process manager itself, Electron's own process (npm start) and the tests' arbor-shell helper spawn directly.
  {
    files: ['main/process/**/*.ts', 'main/cli/start.ts', 'main/cli/shell-process.ts', 'main/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(['electron'], 'Only main/app may import electron.'),
        restrict(['**/renderer/**', '**/preload/**'], 'main/ never imports renderer/ or preload/.'),
      ] }],
    },
  },
  {
    files: ['main/app/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(['**/renderer/**', '**/preload/**'], 'main/ never imports renderer/ or preload/.'),
      ] }],
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(['**/main/**', '**/renderer/**'], 'preload/ never imports main/ or renderer/.'),
      ] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', { patterns: rendererBase }],
    },
  },
  ...mainLayerRules,
  ...rendererLayerRules,
);
