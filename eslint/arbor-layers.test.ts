import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { findCycle, unitOf } from './arbor-layers.js';

const lint = async (filePath: string, code: string): Promise<string[]> => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'arbor/layers').map((m) => m.message);
};

describe('the allow-list layer map', () => {
  it('refuses an import its unit does not list (the process manager importing the shell)', async () => {
    const messages = await lint('main/process/probe.ts', "import { Shell } from '../shell/shell.ts';\nexport const s = Shell;\n");
    expect(messages.join('\n')).toMatch(/main\/process may not import main\/shell/);
  });

  it('refuses one prover importing another, and the agent layer importing batch', async () => {
    expect((await lint('main/provers/coq/probe.ts', "import { x } from '../lean/lean-config.ts';\nexport const y = x;\n")).join('\n')).toMatch(/main\/provers\/coq may not import main\/provers\/lean/);
    expect((await lint('main/agent/probe.ts', "import { x } from '../batch/dispatcher.ts';\nexport const y = x;\n")).join('\n')).toMatch(/main\/agent may not import main\/batch/);
  });

  it('keeps HAMMER\'s pipeline below the Coq session: it reaches the session only through its port', async () => {
    expect((await lint('main/provers/coq/hammer/probe.ts', "import { CoqSession } from '../coq-session.ts';\nexport const s = CoqSession;\n")).join('\n')).toMatch(/main\/provers\/coq\/hammer may not import main\/provers\/coq/);
    expect(await lint('main/provers/coq/probe.ts', "import { HammerPipeline } from './hammer/hammer-pipeline.ts';\nexport const h = HammerPipeline;\n")).toEqual([]);
  });

  it('refuses a file in a folder the map does not know', async () => {
    const messages = await lint('main/newfolder/probe.ts', "import { Shell } from '../host/web-host.ts';\nexport const s = Shell;\n");
    expect(messages.join('\n')).toMatch(/belongs to no unit/);
  });

  it('accepts what the map allows', async () => {
    expect(await lint('main/provers/coq/probe.ts', "import { startProcess } from '../../process/process-manager.ts';\nexport const s = startProcess;\n")).toEqual([]);
  });

  it('finds cycles and names units by their longest prefix', () => {
    expect(findCycle({ a: ['b'], b: ['c'], c: ['a'] })).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle({ a: ['b'], b: [] })).toBeUndefined();
    expect(unitOf('main/provers/coq/coq-session.ts')).toBe('main/provers/coq');
    expect(unitOf('vitest.config.ts')).toBe('.');
    expect(unitOf('main/nowhere/x.ts')).toBeUndefined();
  });
});
