import { z } from 'zod';

/**
 * The provers page's per-user settings, kept in the ordinary settings file under these keys. They are
 * validated on every `settings.set` (the renderer is untrusted) and override the ARBOR_* environment
 * variables when the workbench starts a lean or isabelle channel.
 */
export const PROVER_SETTING_KEYS = ['lean.pantograph', 'lean.imports', 'lean.projectDir', 'lean.memoryMb', 'isabelle.server', 'isabelle.address'] as const;
export type ProverSettingKey = (typeof PROVER_SETTING_KEYS)[number];

const commandLine = z.string().max(4096).refine((s) => !s.includes('\n') && !s.includes('\r') && !s.includes('\u0000'), 'one line, no NUL');
const moduleList = z.string().max(4096).refine((s) => s.split(/[\s,]+/).filter(Boolean).every((m) => /^[A-Za-z_][\w.']*$/.test(m)), 'module names separated by blanks or commas');
const directory = z.string().max(4096).refine((s) => s === '' || s.startsWith('/'), 'an absolute path (or empty)').refine((s) => !s.includes('\u0000'), 'NUL in path');
/** An Isa-REPL server's address (empty: none). */
const hostPort = z.string().max(300).refine((s) => s.trim() === '' || /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}$/.test(s.trim()), 'HOST:PORT (or empty)');
/** 0 means no cap; otherwise at least 256 MB (Lean itself needs that much) and at most 1 TB. */
const memoryMb = z.number().int().refine((n) => n === 0 || (n >= 256 && n <= 1 << 20), '0 (no cap) or 256..1048576 MB');

export const proverSettingSchemas: Record<ProverSettingKey, z.ZodType> = {
  'lean.pantograph': commandLine,
  'lean.imports': moduleList,
  'lean.projectDir': directory,
  'lean.memoryMb': memoryMb,
  'isabelle.server': commandLine,
  'isabelle.address': hostPort,
};

export type SettingsPatch = Record<string, string | number | boolean>;

/** Checks the prover keys of a settings patch (other keys pass unchanged); the first problem wins. */
export function validateSettingsPatch(patch: SettingsPatch): { ok: true } | { ok: false; error: string } {
  for (const key of PROVER_SETTING_KEYS) {
    if (!Object.hasOwn(patch, key)) continue;
    const parsed = proverSettingSchemas[key].safeParse(patch[key]);
    if (!parsed.success) return { ok: false, error: `setting ${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  }
  return { ok: true };
}

/** The prover settings a user has set (valid ones only: a hand-edited file cannot break start-up). */
export interface ProverSettings {
  pantograph?: string;
  imports?: string[];
  projectDir?: string;
  memoryMb?: number;
  /** The command that starts an Isa-REPL server (Isa-REPL's `repl_server.sh`). */
  isabelleServer?: string;
  /** The address of a running Isa-REPL server (wins over `isabelleServer`). */
  isabelleAddress?: string;
}

export function proverSettingsFrom(settings: SettingsPatch): ProverSettings {
  const ok = (key: ProverSettingKey): boolean => Object.hasOwn(settings, key) && proverSettingSchemas[key].safeParse(settings[key]).success;
  const str = (key: ProverSettingKey): string => String(settings[key]).trim();
  const out: ProverSettings = {};
  if (ok('lean.pantograph') && str('lean.pantograph')) out.pantograph = str('lean.pantograph');
  if (ok('lean.imports') && str('lean.imports')) out.imports = str('lean.imports').split(/[\s,]+/).filter(Boolean);
  if (ok('lean.projectDir') && str('lean.projectDir')) out.projectDir = str('lean.projectDir');
  if (ok('lean.memoryMb') && settings['lean.memoryMb'] !== 0) out.memoryMb = settings['lean.memoryMb'] as number;
  if (ok('isabelle.server') && str('isabelle.server')) out.isabelleServer = str('isabelle.server');
  if (ok('isabelle.address') && str('isabelle.address')) out.isabelleAddress = str('isabelle.address');
  return out;
}
