import { leanSettingsFromEnv } from '../provers/lean/lean-config.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import type { ProverSettings } from '../../shared/settings/prover-settings.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';

/** Lean settings for the workbench: the user's Provers-page settings over the ARBOR_* environment. */
export function leanSettingsFor(user: ProverSettings, env: NodeJS.ProcessEnv = process.env): LeanSettings {
  const settings = leanSettingsFromEnv(env);
  if (user.pantograph !== undefined) settings.pantograph = user.pantograph;
  if (user.imports !== undefined && user.imports.length > 0) settings.imports = user.imports;
  if (user.projectDir !== undefined) settings.projectDir = user.projectDir;
  if (user.memoryMb !== undefined) settings.memoryMb = user.memoryMb;
  return settings;
}

/**
 * Where the isabelle backend's Isa-REPL server is: the Provers-page settings, else ARBOR_ISABELLE_ADDRESS and
 * ARBOR_ISABELLE_SERVER. An address (a server the user runs) wins over a command that starts one.
 */
export function isabelleServerFor(user: ProverSettings, env: NodeJS.ProcessEnv = process.env): IsabelleServerConfig {
  const address = user.isabelleAddress ?? (env.ARBOR_ISABELLE_ADDRESS?.trim() || undefined);
  const serverCommand = user.isabelleServer ?? (env.ARBOR_ISABELLE_SERVER?.trim() || undefined);
  if (address !== undefined) return { address };
  return serverCommand !== undefined ? { serverCommand } : {};
}
