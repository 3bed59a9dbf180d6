#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npm ci` is the only set-up step.
import { register } from 'tsx/esm/api';

register();
const { runArborCommand } = await import('../main/cli/arbor-command.ts');
process.exitCode = await runArborCommand(process.argv.slice(2));
