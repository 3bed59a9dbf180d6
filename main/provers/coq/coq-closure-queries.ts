import { ProverError } from '../../shell/prover-session.ts';
import { ClosedConstants } from './closed-constants.ts';
import { ClosedLibraryCache } from './closed-library-cache.ts';
import { printedAll } from './printed-all.ts';
import { hasArborPlugin } from './arbor-plugin.ts';
import { constantFromLocate, isQualid, sectionVariableFromLocate, type ResolvedAssumption } from './assumptions.ts';
import { coqTrim } from './coq-sentence.ts';
import { functorParameterField, librariesFromPrint } from './functor-parameters.ts';
import { notices } from './statement-reading.ts';
import { ROUND_TRIP_MS, type CoqTip } from './coq-tip.ts';

/** The kernel re-checks the whole proof term at `Qed`: give it at least this long. */
export const QED_MIN_MS = 30_000;

/**
 * The closed-constants judge (closed-constants.ts) of one session, asking its questions of the session's
 * coqidetop at the tip: finished theorems' assumptions, each global's closure walked once per session.
 */
export function closedConstantsOn(tip: CoqTip, timeoutMs: number): ClosedConstants {
  const limit = Math.max(timeoutMs, QED_MIN_MS);
  return new ClosedConstants({
    query: async (sentences) => (await tip.client.queryJoined(sentences, tip.client.tip, limit)).filter((m) => m.level === 'notice').map((m) => m.text),
    references: (name) => references(tip, name, limit),
    assumptionsOfAll: (fulls) => assumptionsOfAll(tip, fulls, limit),
    resolve: async (name) => {
      const located = await tip.client.query(`Locate Term ${name}.`, tip.client.tip, ROUND_TRIP_MS).then(notices, () => undefined);
      // Coq could not parse the name: a notation made it a keyword (`land` after `Import Uint63`).
      if (located === undefined) return isQualid(name) ? keywordName(tip, name) : undefined;
      const full = constantFromLocate(located);
      if (full === undefined) return sectionVariableFromLocate(located);
      // The plugin knows from the kernel whether the constant is a bound module's (a functor's parameter field):
      // a parameter named `Coq` or `Top` cannot pass its field off as the library's or the document's.
      const bound = await boundModule(tip, name, full);
      if (bound === false) return full;
      if (bound === true) return parameterField(tip, full);
      const libraries = async (): Promise<string[] | undefined> => librariesFromPrint(notices(await tip.client.query('Print Libraries.', tip.client.tip, ROUND_TRIP_MS)));
      return (await functorParameterField(full, tip.openBlocks(), () => libraries().catch(() => undefined))) ?? full;
    },
    logLength: () => tip.log.length,
  }, new ClosedLibraryCache({
    query: async (sentences) => (await tip.client.query(sentences, tip.client.tip, ROUND_TRIP_MS)).filter((m) => m.level === 'notice').map((m) => m.text),
    coqVersion: () => tip.client.about(ROUND_TRIP_MS),
  }));
}

/**
 * A bound module's constant (the plugin said so): a field of a parameter of a functor open here is the functor's
 * premise; any other bound global (a module type's own field) resolves to nothing that could be trusted.
 */
function parameterField(tip: CoqTip, full: string): ResolvedAssumption {
  const root = full.split('.')[0] ?? '';
  return tip.openBlocks().some((b) => b.kind === 'module' && (b.params ?? []).includes(root)) ? { functorParameter: full } : undefined;
}

/**
 * A name `Locate Term` could not parse (a notation made it a keyword): the plugin makes the same Nametab lookup from a
 * string (arbor-plugin.ts `Arbor_locate`) and answers in `Arbor_references`' words, the bound-module mark included, so
 * a functor parameter's field `land` is one as `lor2` is. Without the plugin, nothing.
 */
async function keywordName(tip: CoqTip, name: string): Promise<ResolvedAssumption> {
  const answer = await tip.client.query(`Arbor_locate "${name}".`, tip.client.tip, ROUND_TRIP_MS).then(notices, () => '');
  const variable = sectionVariableFromLocate(answer);
  if (variable !== undefined) return variable;
  const m = /^Constant ([^ \t\r\n]+)( \(bound module\))?$/.exec(coqTrim(answer));
  if (m === null || !isQualid(m[1] as string)) return undefined;
  return m[2] === undefined ? m[1] : parameterField(tip, m[1] as string);
}

/**
 * Whether `name` (which `Locate Term` resolved to `full`) is a bound module's constant, as the plugin's first line
 * says; undefined when the plugin does not answer for it (no plugin: the path's text decides, as before it).
 */
async function boundModule(tip: CoqTip, name: string, full: string): Promise<boolean | undefined> {
  const first = (await tip.client.query(`Arbor_references ${name}.`, tip.client.tip, ROUND_TRIP_MS).then(notices, () => '')).split('\n')[0] ?? '';
  if (first === `Constant ${full}`) return false;
  if (first === `Constant ${full} (bound module)`) return true;
  return undefined;
}

/** `Arbor_references name` at the tip (arbor-plugin.ts). */
async function references(tip: CoqTip, name: string, limit: number): Promise<string> {
  // One exchange with the `Check` the statement judge reads next (printed-all.ts).
  const { references } = await printedAll(tip.client, name, limit);
  if (references === undefined) throw new ProverError('prover', `Arbor_references ${name} failed`);
  return references;
}

/**
 * What `Print Assumptions` says of every global of `fulls` together (see closed-constants.ts): the plugin's
 * `Arbor_assumptions_all`, which looks each name up and walks it with Coq's own code, parsing no term. It replaced a
 * throw-away definition `let _ := @A in … tt` at the tip, which the document's own notations parsed
 * (`arbor-queries.attack.test.ts`: a notation made it `tt`, "Closed", and `False` was proved). Without the plugin,
 * undefined: the judge asks `Print Assumptions` of each name.
 */
async function assumptionsOfAll(tip: CoqTip, fulls: readonly string[], limit: number): Promise<string | undefined> {
  if (fulls.length === 0 || !fulls.every(isQualid) || !hasArborPlugin(tip.client)) return undefined;
  return notices(await tip.client.query(`Arbor_assumptions_all ${fulls.map((f) => `"${f}"`).join(' ')}.`, tip.client.tip, limit));
}
