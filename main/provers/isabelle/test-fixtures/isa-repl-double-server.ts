/**
 * TEST DOUBLE as a program: takes the arguments of Isa-REPL's `repl_server.sh` (`ADDR BASE_SESSION
 * OUTPUT_DIR [options]`), listens on ADDR with `isa-repl-double.ts` and runs until it is killed — so a test
 * can let Arbor start "the server" through the process manager exactly as it starts the real one.
 * With `ARBOR_DOUBLE_EXIT_AT_START=1` it exits at once (a server that cannot start); with
 * `ARBOR_DOUBLE_PID_FILE=PATH` it writes its pid there (so a test can kill the server Arbor started).
 */
import { writeFileSync } from 'node:fs';
import { startIsaReplDouble } from './isa-repl-double.ts';

const [addr, session, outputDir] = process.argv.slice(2);
const m = /^([^:]+):(\d+)$/.exec(addr ?? '');
if (!m || !session || !outputDir) {
  process.stderr.write('usage: isa-repl-double-server ADDR BASE_SESSION OUTPUT_DIR\n');
  process.exit(1);
}
if (process.env.ARBOR_DOUBLE_EXIT_AT_START === '1') {
  process.stderr.write('test double: told to fail at start\n');
  process.exit(3);
}
process.stdout.write('Hi, this is Isabelle REPL Server.\n');
if (process.env.ARBOR_DOUBLE_PID_FILE) writeFileSync(process.env.ARBOR_DOUBLE_PID_FILE, String(process.pid));
await startIsaReplDouble({ host: m[1] as string, port: Number(m[2]) });
process.stdout.write(`I'm now listening on ${addr}. I will never terminate untill you kill me!\n`);
