import type { Rule } from 'eslint';

export const UNITS: Record<string, string[]>;
export function unitOf(path: string): string | undefined;
export function findCycle(units: Record<string, string[]>): string[] | undefined;
export const layersRule: Rule.RuleModule;
