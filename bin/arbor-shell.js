#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npm ci` is the only set-up step.
import { register } from 'tsx/esm/api';

register();
const { runArborShell } = await import('../main/cli/arbor-shell.ts');
process.exitCode = await runArborShell(process.argv.slice(2));
