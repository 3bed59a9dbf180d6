import type { ShellCommand } from '../../../shared/protocol/shell-command.ts';
import { isMinilangCommand } from '../../../shared/protocol/shell-command.ts';
import { checkFacts, checkMethod, checkName, PolicyRefusal, quoteTerm, tokenizeArguments } from './minilang-policy.ts';

/** A seed command as one Minilang command (v0.6.0 syntax), and how long Minilang may take for it. */
export interface MinilangStep {
  source: string;
  /** The `\eval` limit in ms; undefined: the channel's default. */
  limitMs?: number;
}

/**
 * The seed's proof commands in Minilang (Isa-Mini v0.6.0, `library/proof.ML`, checked command by command):
 *
 * | seed / Arbor | Minilang |
 * |---|---|
 * | `END`, `NEXT` | `END`, `NEXT` (hammer the goal if it is not proved, close it) |
 * | `HAVE [name] "e"` | `HAVE [name:] "e"` |
 * | `OBTAIN x y [:: T] where [n:] "c" and …` | `CONSIDER x y [:: "T"] where [n:] "c" and …` (Isar's obtain; Minilang has no OBTAIN) |
 * | `CRUSH [rules]` | `SIMP [WITH rules]` (Minilang's CRUSH is commented out in v0.6.0: "CRUSH disabled — currently broken") |
 * | `HAMMER [s]` | `HAMMER`, under `\eval` with a limit of s seconds (Minilang's HAMMER takes no time) |
 * | `RULE r`, `UNFOLD r`, `APPLY m`, `LET ?x = "t"` | the same command |
 * | `DEFINE x where "…"` (no quotes) | `DEFINE x where "…"` (proof-local) |
 * | `INDUCT`, `CASE_SPLIT`, `INTRO`, `ALL_INTRO`, `CONSIDER`, `CHOOSE`, `NOTATION`, `OPEN_MODULE`, `CONFIG`, `STEP`, `SIMPLIFY` | the same command, arguments in Minilang's syntax |
 *
 * Every argument passes the policy first (`minilang-policy.ts`). Returns undefined for commands that are not
 * proof steps.
 */
export function toMinilang(command: ShellCommand, hammerDefaultMs: number): MinilangStep | undefined {
  switch (command.name) {
    case 'END':
    case 'NEXT': return { source: command.name, limitMs: hammerDefaultMs };
    case 'HAVE': return { source: `HAVE ${command.hypName !== undefined ? `${checkName(command.hypName, 'fact name')}: ` : ''}${quoteTerm(command.expr)}` };
    case 'OBTAIN': {
      const vars = command.vars.map((v) => checkName(v, 'variable name')).join(' ');
      const type = command.type !== undefined ? ` :: ${quoteTerm(command.type, 'type')}` : '';
      const conds = command.conds.map((c) => `${c.name !== undefined ? `${checkName(c.name, 'condition name')}: ` : ''}${quoteTerm(c.expr, 'condition')}`).join(' and ');
      return { source: `CONSIDER ${vars}${type} where ${conds}` };
    }
    case 'CRUSH': {
      if (command.rules.length === 0) return { source: 'SIMP' };
      for (const r of command.rules) checkFacts(r, 'CRUSH');
      return { source: `SIMP WITH ${command.rules.join(' ')}` };
    }
    case 'HAMMER': return { source: 'HAMMER', limitMs: command.timeoutSeconds !== undefined ? command.timeoutSeconds * 1000 : hammerDefaultMs };
    case 'RULE':
    case 'UNFOLD':
      checkFacts(command.rule, command.name);
      return { source: `${command.name} ${command.rule}` };
    case 'APPLY':
      checkMethod(command.tactic);
      return { source: `APPLY ${command.tactic}` };
    case 'LET': {
      if (!/^\?[A-Za-z][A-Za-z0-9_']*$/.test(command.abbrev)) throw new PolicyRefusal(`bad abbreviation: ${command.abbrev}`);
      return { source: `LET ${command.abbrev} = ${quoteTerm(command.term)}` };
    }
    case 'DEFINE':
      if (!command.proofLocal) return undefined;
      tokenizeArguments(command.text);
      return { source: `DEFINE ${command.text}` };
    default:
      if (!isMinilangCommand(command)) return undefined;
      tokenizeArguments(command.args);
      return { source: command.args === '' ? command.name : `${command.name} ${command.args}` };
  }
}
