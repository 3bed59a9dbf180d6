import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layersRule } from './eslint/arbor-layers.js';

// Layering (house style 1): shared/ runs anywhere; main, preload and renderer import shared, never each other;
// only main/app may import electron. Which folder may import which is the allow-list in eslint/arbor-layers.js.
const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'child_process', 'os', 'net', 'http', 'https', 'stream', 'events', 'util', 'crypto', 'url', 'worker_threads', 'readline', 'zlib', 'process', 'buffer'];
const restrict = (groups, message) => ({ group: groups, message });

const mainBase = [
  restrict(['electron'], 'Only main/app may import electron.'),
  restrict(['**/renderer/**', '**/preload/**'], 'main/ never imports renderer/ or preload/.'),
  restrict(['node:child_process', 'child_process'], 'Start processes through main/process/process-manager.ts (one process manager: process groups, temp dirs, death with Arbor).'),
];
const rendererBase = [
  restrict(nodeBuiltins, 'The renderer is sandboxed: no Node built-ins.'),
  restrict(['electron'], 'The renderer never imports electron; use the preload API.'),
  restrict(['**/main/**', '**/preload/**'], 'renderer/ never imports main/ or preload/.'),
];

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
  // The allow-list layer map: every file belongs to a unit, every relative import is one its unit allows.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { arbor: { rules: { layers: layersRule } } },
    rules: { 'arbor/layers': 'error' },
  },
);
