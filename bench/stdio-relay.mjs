#!/usr/bin/env node
// A byte relay between its own stdio and a coqidetop's (ARBOR_RELAY_TARGET, with the arguments it was
// given): a process that does nothing but pass bytes. bench/shell-bench.ts puts it between the raw client
// and coqidetop to measure what one extra process hop costs on this machine, the floor of any separate
// process, arbor-shell included. It runs in its client's process group, so it dies with it.
import { spawn } from 'node:child_process';

const target = process.env.ARBOR_RELAY_TARGET;
if (!target) {
  process.stderr.write('stdio-relay: ARBOR_RELAY_TARGET is not set\n');
  process.exit(2);
}
const child = spawn(target, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.stdin.on('error', () => undefined);
child.on('exit', (code) => process.exit(code ?? 1));
