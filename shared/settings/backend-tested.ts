/**
 * What each backend has (and has not) been run against, stated plainly: the Provers page shows it under
 * each backend and `arbor-shell --check` prints it, so "found" is never read as "tested".
 */
export const BACKEND_TESTED: Readonly<Record<string, string>> = {
  coq: 'Run against the real Coq (coqidetop, XML protocol) in every test run.',
  eq: 'Arbor\'s own engine, in process: run in every test run.',
  lean: 'Speaks to Pantograph 0.3.4 or a later 0.3.x (older versions are refused with the exact fix). Built from Pantograph\'s source (tags v0.2.25 … v0.3.4); tested against a Pantograph test double that follows each tag, and the double against the real PyPantograph 0.3.15 client. Never run against a real Lean here; where lean is installed, Arbor checks every finished proof\'s script with it.',
  isabelle: 'A client of the Isa-REPL server with Isabelle/Minilang\'s REPL app (Isa-REPL 0.14.1, Isa-Mini v0.6.0; MessagePack over TCP). '
    + 'Never run against a real Isabelle: Arbor is tested against a test double of that server, and the double was checked against the real Python clients '
    + '(IsaREPL, IsaMini.REPL) for every message kind Arbor uses: heartbeat, the handshake, \\x05notrace, \\x05load, \\x05addlibs, \\x05ML, \\x05record, '
    + '\\x05rollback, theory source, \\x05app, the Minilang start, \\print, \\stamp, \\rollback, Minilang source, \\eval, \\END_mode, \\conclude, \\close and kill.',
  external: 'A pass-through to a process that already speaks the channel protocol; tested with arbor-shell itself as that process.',
};
