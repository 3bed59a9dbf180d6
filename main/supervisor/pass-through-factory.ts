import { PassThroughEngine } from '../provers/isabelle/pass-through-engine.ts';
import type { EngineFactory } from './engine-factory.ts';

export interface PassThroughConfig {
  /** The command line of a process that speaks the channel protocol (e.g. Isabelle's shell). */
  commandLine: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  graceMs?: number;
  startupMs?: number;
  /** Default prelude of every channel (a channel's PRELUDE is appended to it). */
  prelude?: string;
}

/**
 * Channels over an external channel-protocol process (the `isabelle` backend): one process per Arbor
 * channel, started on the channel's first command, so a crash or a runaway proof stays in its channel.
 */
export function createPassThroughFactory(config: PassThroughConfig): EngineFactory {
  const [command, ...args] = splitCommandLine(config.commandLine);
  if (command === undefined) throw new Error('the isabelle backend needs --command "…" (the external process)');
  return {
    createEngine(_channel, prelude) {
      const combined = [config.prelude, prelude].filter((p): p is string => p !== undefined).join('\n');
      return new PassThroughEngine({
        command,
        args,
        timeoutMs: config.timeoutMs,
        ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
        ...(config.env !== undefined ? { env: config.env } : {}),
        ...(config.graceMs !== undefined ? { graceMs: config.graceMs } : {}),
        ...(config.startupMs !== undefined ? { startupMs: config.startupMs } : {}),
        ...(combined !== '' ? { prelude: combined } : {}),
      });
    },
    dispose: async () => undefined,
  };
}

/** Splits a command line like a POSIX shell does for words: blanks separate, quotes and `\` group. */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in command line`);
  if (inWord) words.push(word);
  return words;
}
