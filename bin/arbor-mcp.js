#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npm ci` is the only set-up step.
import { register } from 'tsx/esm/api';

register();
const { runArborMcp } = await import('../main/cli/arbor-mcp.ts');
process.exitCode = await runArborMcp(process.argv.slice(2));
