/** Locates the AIM evaluation data (never copied into the project) for tests. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const AIM_DATA_DIR = resolve(repoRoot, '../shared/data/aim');
export const aimDataAvailable = existsSync(resolve(AIM_DATA_DIR, 'preamble.txt'));
export const aimDataMissingMessage = `AIM data not found at ${AIM_DATA_DIR}: data-dependent tests skipped`;
export const readAim = (name: string): string => readFileSync(resolve(AIM_DATA_DIR, name), 'utf8');
