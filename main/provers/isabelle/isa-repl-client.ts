import { z } from 'zod';
import { ConnectionClosed, MsgpackConnection, ReadTimeout } from './msgpack-connection.ts';

/**
 * A client of the Isa-REPL server (github.com/xqyww123/Isa-REPL, `library/Server.ML`) and of the
 * Minilang REPL app that runs inside it (github.com/xqyww123/Isa-Mini, `REPL/library/toplevel.ML`),
 * written from those sources and from their Python clients (`IsaREPL/IsaREPL.py`, `IsaMini/REPL.py`):
 *
 * - TCP, a stream of MessagePack values. The client opens with its version string (the server accepts
 *   exactly `0.14.1`) and a theory qualifier; the server answers `[[pid, client_id], nil]`.
 * - Every answer is a pair `[value, nil]` on success or `[nil, message]` on failure.
 * - REPL mode: control commands are strings starting with `\x05` followed by their arguments as further
 *   values; any other string is Isabelle source to evaluate.
 * - `\x05app NAME` hands the connection to an app. Minilang's app reads `(hasty, END mode, sledgehammer
 *   params)` and answers its version `0.3.5`; from then on a string is Minilang source (one answer for the
 *   whole source: one `(new items, new case, proof tree)` per command, plus whether the proof is finished),
 *   or one of `\stamp`, `\rollback`, `\conclude`, `\close`, `\print`, `\eval`, `\END_mode` with arguments.
 */

/** What the client announces; `library/Server.ML` accepts exactly this version (and `heartbeat`, `kill N`). */
export const ISA_REPL_PROTOCOL_VERSION = '0.14.1';
/** What Minilang's app answers when it starts (`REPL/library/toplevel.ML`, `IsaMini/REPL.py`'s check). */
export const MINILANG_REPL_VERSION = '0.3.5';
/** The app's registered name and how Minilang's Python client registers it. */
export const MINILANG_APP = 'Minilang-REPL';
export const MINILANG_TOP_THEORY = 'Minilang_REPL.Minilang_Top';
export const MINILANG_REGISTER_ML = 'REPL_Server.register_app "Minilang-REPL" Minilang_Top.REPL_App';
/** `IsaMini/REPL.py` adds this library to every theory (`ML_base_injection`). */
export const MINILANG_BASE_LIB = 'Minilang.Minilang_Base';
export type EndMode = 'RELAXED' | 'COMPLETE_NEXT' | 'STRICT';

/** The server (or the Minilang app) answered with an error message: `[nil, message]`. */
export class IsaReplError extends Error {}
/** The server sent something that is not the documented shape. */
export class IsaReplProtocolError extends Error {}

// --- Shapes (MessagePack maps arrive as objects; ML's packPairList is a map) --------------------------------

/** `(variables, facts)`: `packPair (packPairList (name, typ), packPairList (name, term))`. */
const itemsSchema = z.tuple([z.record(z.string(), z.string()), z.record(z.string(), z.string())]);
export type MinilangItems = z.infer<typeof itemsSchema>;

/** Minilang's printed proof tree: `[0, items, goal]` proposition, `[1, items, [trees]]` bundle, `[2, tree]` block. */
export type MinilangTree =
  | [0, MinilangItems, string]
  | [1, MinilangItems, MinilangTree[]]
  | [2, MinilangTree];
const treeSchema: z.ZodType<MinilangTree> = z.lazy(() => z.union([
  z.tuple([z.literal(0), itemsSchema, z.string()]),
  z.tuple([z.literal(1), itemsSchema, z.array(treeSchema)]),
  z.tuple([z.literal(2), treeSchema]),
])) as z.ZodType<MinilangTree>;

/** One command's answer: `(new items, the case entered, the proof tree after it)`. */
const commandAnswerSchema = z.tuple([itemsSchema, z.string().nullable(), treeSchema]);
export type MinilangCommandAnswer = z.infer<typeof commandAnswerSchema>;
/** `pack_response = packPair (packList pack_response', packBool)`. */
const evalAnswerSchema = z.tuple([z.array(commandAnswerSchema), z.boolean()]);
export interface MinilangAnswer { commands: MinilangCommandAnswer[]; finished: boolean }

/** `REPL_Serialize.command_output_packer`: a 9-tuple (what `\x05rollback` answers). */
const positionSchema = z.tuple([z.number(), z.number(), z.number(), z.tuple([z.string(), z.string(), z.string()])]);
const commandOutputSchema = z.tuple([
  z.string(), z.array(z.tuple([z.number(), z.string()])), z.string().nullable(),
  z.tuple([z.boolean(), z.boolean(), z.boolean(), z.boolean()]), z.number(), z.string(),
  z.record(z.string(), z.unknown()), z.array(z.string()), z.tuple([positionSchema, positionSchema]),
]);

function shaped<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new IsaReplProtocolError(`malformed ${what} from the Isa-REPL server: ${clip(JSON.stringify(value))}`);
  return parsed.data;
}

export interface ServerAddress { host: string; port: number }

export function parseAddress(text: string): ServerAddress | undefined {
  const m = /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(text.trim());
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (m[1] as string).replace(/^\[|\]$/g, ''), port };
}

export function formatAddress(address: ServerAddress): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

export class IsaReplClient {
  private constructor(
    private readonly connection: MsgpackConnection,
    /** The server's process id (`REPL_PID`, the launcher's pid) and this connection's client id. */
    readonly serverPid: number,
    readonly clientId: number,
  ) {}

  /** Opens a session: version and qualifier, then `[[pid, client_id], nil]`. */
  static async connect(address: ServerAddress, qualifier: string, timeoutMs: number): Promise<IsaReplClient> {
    const connection = await MsgpackConnection.open(address.host, address.port, timeoutMs);
    try {
      connection.send(ISA_REPL_PROTOCOL_VERSION, qualifier);
      const [pid, id] = shaped(z.tuple([z.number(), z.number()]), control(await connection.next(timeoutMs)), 'handshake');
      return new IsaReplClient(connection, pid, id);
    } catch (err) {
      connection.close();
      throw err instanceof ReadTimeout ? new ReadTimeout(handshakeStalled(address, timeoutMs)) : err;
    }
  }

  /** The server's `heartbeat`: answers `[nil, nil]` and closes. Resolves when the server is up. */
  static async heartbeat(address: ServerAddress, timeoutMs: number): Promise<void> {
    const connection = await MsgpackConnection.open(address.host, address.port, timeoutMs);
    try {
      connection.send('heartbeat');
      control(await connection.next(timeoutMs));
    } catch (err) {
      throw err instanceof ReadTimeout ? new ReadTimeout(handshakeStalled(address, timeoutMs)) : err;
    } finally {
      connection.close();
    }
  }

  /** `kill N` on a fresh connection: the server interrupts client N's worker thread. */
  static async killClient(address: ServerAddress, clientId: number, timeoutMs: number): Promise<boolean> {
    const connection = await MsgpackConnection.open(address.host, address.port, timeoutMs);
    try {
      connection.send(`kill ${clientId}`);
      return shaped(z.boolean(), control(await connection.next(timeoutMs)), 'kill answer');
    } finally {
      connection.close();
    }
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  close(): void {
    this.connection.close();
  }

  // --- REPL mode (IsaREPL.Client) ---------------------------------------------------------------------------

  /** `\x05trace` / `\x05notrace`: whether evaluation collects every command's output (off is much faster). */
  async setTrace(on: boolean, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, on ? '\x05trace' : '\x05notrace');
  }

  /** `\x05load (qualifier, [theories])`: the loaded theories' full names. */
  async loadTheories(theories: string[], timeoutMs: number, qualifier = ''): Promise<string[]> {
    return shaped(z.array(z.string()), await this.call(timeoutMs, '\x05load', [qualifier, theories]), 'load answer');
  }

  /** `\x05addlibs [libs]`: libraries every later theory imports. */
  async addLibs(libs: string[], timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\x05addlibs', libs);
  }

  /** `\x05ML (theory, source)`. Arbor only ever sends Minilang's fixed registration (`MINILANG_REGISTER_ML`). */
  async runML(theory: string | null, source: string, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\x05ML', [theory, source]);
  }

  /** `\x05record NAME`: remember the evaluation state. */
  async recordState(name: string, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\x05record', name);
  }

  /** `\x05rollback NAME`: back to a recorded evaluation state (answers a command-output record). */
  async rollbackState(name: string, timeoutMs: number): Promise<void> {
    shaped(commandOutputSchema, await this.call(timeoutMs, '\x05rollback', name), 'rollback answer');
  }

  /** Plain source (theory text): `[outputs or nil, error or nil]`; with tracing off the outputs are nil. */
  async evalSource(source: string, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, source);
  }

  /** `\x05app NAME`: `true` and the connection belongs to the app, or `false` (no such app). */
  async runApp(name: string, timeoutMs: number): Promise<void> {
    const found = shaped(z.boolean(), await this.call(timeoutMs, '\x05app', name), 'app answer');
    if (!found) throw new IsaReplError(`the Isa-REPL server has no app named ${name}`);
  }

  // --- Minilang mode (IsaMini.REPL) ---------------------------------------------------------------------------

  /** Right after `runApp(MINILANG_APP)`: `(hasty, END mode, sledgehammer params)`, answered by the app's version. */
  async startMinilang(options: { hasty: boolean; endMode: EndMode; sledgehammerParams: string }, timeoutMs: number): Promise<void> {
    const version = await this.call(timeoutMs, [options.hasty, options.endMode, options.sledgehammerParams]);
    if (version !== MINILANG_REPL_VERSION) throw new IsaReplProtocolError(`the Minilang REPL answered version ${clip(JSON.stringify(version))}; Arbor speaks ${MINILANG_REPL_VERSION}`);
  }

  /**
   * Minilang source, one answer for all its commands. With limits it goes as `\eval (timeout, timeout per
   * command, source)` (milliseconds; the server applies them itself).
   */
  async minilang(source: string, limits: { totalMs?: number; perCommandMs?: number }, timeoutMs: number): Promise<MinilangAnswer> {
    const value = limits.totalMs === undefined && limits.perCommandMs === undefined
      ? await this.call(timeoutMs, source)
      : await this.call(timeoutMs, '\\eval', [intOrNull(limits.totalMs), intOrNull(limits.perCommandMs), source]);
    return answer(value);
  }

  /** `\print`: the current state, as one command's answer. */
  async print(timeoutMs: number): Promise<MinilangAnswer> {
    return answer(await this.call(timeoutMs, '\\print'));
  }

  /** `\stamp NAME` / `\rollback NAME`: Minilang's own history of proof states. */
  async stamp(name: string, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\\stamp', name);
  }

  async rollback(name: string, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\\rollback', name);
  }

  /** `\conclude`: the finished theorem (as printed) and the proof text Minilang gives with it. */
  async conclude(timeoutMs: number): Promise<{ theorem: string; proof: string }> {
    const [theorem, proof] = shaped(z.tuple([z.string(), z.string()]), await this.call(timeoutMs, '\\conclude'), 'conclude answer');
    return { theorem, proof };
  }

  /** `\END_mode MODE`. */
  async setEndMode(mode: EndMode, timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\\END_mode', mode);
  }

  /** `\close`: leave Minilang (the proof is dropped); the connection is back in REPL mode. */
  async closeMinilang(timeoutMs: number): Promise<void> {
    await this.call(timeoutMs, '\\close');
  }

  /** Sends the values and reads one `[value, error]` answer. */
  private async call(timeoutMs: number, ...values: unknown[]): Promise<unknown> {
    this.connection.send(...values);
    return control(await this.connection.next(timeoutMs));
  }
}

/**
 * The server's accept loop reads each new connection's first values itself, one connection at a time, before
 * it hands the session to a worker (`library/Server.ML`, `startup`): a client that connected and sent nothing
 * holds every later connection, and the server then accepts but never answers.
 */
function handshakeStalled(address: ServerAddress, timeoutMs: number): string {
  return `the Isa-REPL server at ${formatAddress(address)} accepted the connection but did not answer within ${timeoutMs} ms; it takes new connections one at a time, so a client that connected and sent nothing (or a busy server) holds it: stop that client, or restart the server`;
}

/** `_parse_control_`: `[value, nil]` is `value`, `[x, message]` is the message. */
function control(frame: unknown): unknown {
  if (!Array.isArray(frame) || frame.length !== 2) throw new IsaReplProtocolError(`malformed answer from the Isa-REPL server: ${clip(JSON.stringify(frame))}`);
  const [value, error] = frame as [unknown, unknown];
  if (error === null || error === undefined) return value;
  if (typeof error !== 'string') throw new IsaReplProtocolError(`malformed error from the Isa-REPL server: ${clip(JSON.stringify(error))}`);
  throw new IsaReplError(error);
}

function answer(value: unknown): MinilangAnswer {
  const [commands, finished] = shaped(evalAnswerSchema, value, 'Minilang answer');
  return { commands, finished };
}

function intOrNull(ms: number | undefined): number | null {
  return ms === undefined ? null : Math.max(1, Math.round(ms));
}

function clip(text: string | undefined, max = 160): string {
  const t = text ?? 'undefined';
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

export { ConnectionClosed };
