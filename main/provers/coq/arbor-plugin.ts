import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CoqideTopClient, type ClientOptions } from './coqidetop-client.ts';
import { coqTrim } from './coq-sentence.ts';
import { isLetBound, readLetTypes } from './coq-hyps.ts';

/**
 * Arbor's Coq plugin (`coq-plugin/`, built on each machine by `coq-plugin/build.sh` from `scripts/install.sh`):
 * its query `Arbor_references NAME.` gives the globals a finished theorem's kernel term mentions, which the
 * assumption judge reads instead of printing the proof term and locating every printed word
 * (closed-constants.ts, docs/arbor-plugin.md). A channel's coqidetop loads it before its first sentence with
 * `-I dir -l startup.v`, so it is never part of a document or its SCRIPT; the directory is readable, not
 * writable, in the sandbox. Where it is not built, or the Coq that runs it refuses it (another Coq version),
 * the channel runs without it and the judge asks Coq's own `Print Assumptions` instead: slower, same rule; an
 * assumption in untrusted text is then refused (only `Arbor_blocks` can say whether it stands in a section or a module type).
 */
const BUILD = fileURLToPath(new URL('../../../coq-plugin/build/', import.meta.url)).replace(/\/$/, '');

/** The built plugin's directory, when there is one. */
export function arborPluginDir(): string | undefined {
  return existsSync(`${BUILD}/arbor_plugin.cmxs`) && existsSync(`${BUILD}/startup.v`) ? BUILD : undefined;
}

/** `options` for a channel's coqidetop with the plugin loaded; undefined where it is not built. */
export function withArborPlugin(options: ClientOptions): ClientOptions | undefined {
  const dir = arborPluginDir();
  if (dir === undefined) return undefined;
  const sandbox = options.sandbox === false ? false : { ...(options.sandbox ?? {}), readOnly: [...(options.sandbox?.readOnly ?? []), dir] };
  return { ...options, extraArgs: [...(options.extraArgs ?? []), '-I', dir, '-l', `${dir}/startup.v`], sandbox };
}

/**
 * A coqidetop with the plugin loaded (and marked so); undefined where it is not built or this Coq refuses it
 * (another Coq version): the caller then starts one without it — the same rules, slower.
 */
export async function startWithArborPlugin(options: ClientOptions): Promise<CoqideTopClient | undefined> {
  const withPlugin = withArborPlugin(options);
  if (withPlugin === undefined) return undefined;
  try {
    const client = await CoqideTopClient.start(withPlugin);
    markArborPlugin(client);
    return client;
  } catch {
    return undefined;
  }
}

/** Clients whose coqidetop runs the plugin (marked by whoever started them with `withArborPlugin`). */
const withPlugin = new WeakSet<CoqideTopClient>();
export const markArborPlugin = (client: CoqideTopClient): void => void withPlugin.add(client);
export const hasArborPlugin = (client: CoqideTopClient): boolean => withPlugin.has(client);

/**
 * `Arbor_statement NAME.`'s three notices: the constant's type as stored, printed as `Set Printing All` prints it
 * (no depth limit); then `Names` and a line `shown Kind path` per global it mentions, each exactly what `Locate Term
 * shown` answers first at that state; then `Kernel` and the term itself as an s-expression (canonical kernel names,
 * de Bruijn indices, no binder names or universes): the judge's identity. Undefined for anything else (the caller
 * then asks the slow way).
 */
export function readArborStatement(notices: readonly string[]): { printed: string; names: Map<string, string>; kernel: string } | undefined {
  if (notices.length !== 3) return undefined;
  const [head, ...lines] = (notices[1] as string).split('\n');
  // Coq's blanks only: the plugin prints names as Coq does, and a name (or a path) may hold a no-break space (`O `),
  // which JavaScript's `trim` and `\S` would cut.
  if (coqTrim(head ?? '') !== 'Names') return undefined;
  const names = new Map<string, string>();
  for (const line of lines) {
    const m = /^([^ \t\r\n]+) (?:Constant|Inductive|Constructor) ([^ \t\r\n]+)$/.exec(coqTrim(line));
    if (m === null) return undefined;
    names.set(m[1] as string, m[2] as string);
  }
  const kernel = /^Kernel\n(\([\s\S]*\)|#\d+|Prop|Set|SProp|Type)$/.exec(coqTrim(notices[2] as string));
  if (kernel === null) return undefined;
  return { printed: coqTrim(notices[0] as string), names, kernel: kernel[1] as string };
}

/**
 * Coq's types of the let-bound hypotheses of `goals` (read at the client's tip), by goal id: the plugin's
 * `Arbor_let_types.` asked at the tip, once, and only when a goal has one (`x := …`). Undefined without the
 * plugin, without such a hypothesis, or when Coq did not answer: the goal's text is then split as before
 * (coq-hyps.ts `splitHyp`). Display only: what a hypothesis' type reads as never decides what is proved.
 */
export async function letTypesAt(client: CoqideTopClient, goals: readonly { hyps: readonly string[] }[], timeoutMs = 5000): Promise<Map<string, Map<string, string>> | undefined> {
  if (!hasArborPlugin(client) || !goals.some((g) => g.hyps.some(isLetBound))) return undefined;
  const answer = await client.query('Arbor_let_types.', client.tip, timeoutMs).catch(() => undefined);
  return answer === undefined ? undefined : readLetTypes(answer.filter((m) => m.level === 'notice').map((m) => m.text));
}
