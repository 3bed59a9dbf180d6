import { leanSettingsFromEnv } from '../provers/lean/lean-config.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import type { ProverSettings } from '../../shared/settings/prover-settings.ts';

/** Lean settings for the workbench: the user's Provers-page settings over the ARBOR_* environment. */
export function leanSettingsFor(user: ProverSettings, env: NodeJS.ProcessEnv = process.env): LeanSettings {
  const settings = leanSettingsFromEnv(env);
  if (user.pantograph !== undefined) settings.pantograph = user.pantograph;
  if (user.imports !== undefined && user.imports.length > 0) settings.imports = user.imports;
  if (user.projectDir !== undefined) settings.projectDir = user.projectDir;
  if (user.memoryMb !== undefined) settings.memoryMb = user.memoryMb;
  return settings;
}

/** The isabelle backend's external process: the Provers-page setting, else ARBOR_ISABELLE_COMMAND. */
export function isabelleCommandFor(user: ProverSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return user.isabelleCommand ?? (env.ARBOR_ISABELLE_COMMAND?.trim() || undefined);
}
