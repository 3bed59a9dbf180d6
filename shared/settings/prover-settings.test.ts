import { describe, expect, it } from 'vitest';
import { proverSettingsFrom, validateSettingsPatch } from './prover-settings.ts';

describe('prover settings', () => {
  it('accepts good values and leaves other keys alone', () => {
    expect(validateSettingsPatch({ 'lean.pantograph': '/opt/pantograph/repl --flag', 'lean.imports': 'Init, Mathlib.Tactic', 'lean.projectDir': '/home/u/proj', 'lean.memoryMb': 4096, 'isabelle.server': '/opt/Isa-REPL/repl_server.sh', 'isabelle.address': '127.0.0.1:6666', theme: 'dark' })).toEqual({ ok: true });
    expect(validateSettingsPatch({ 'lean.memoryMb': 0, 'lean.projectDir': '' })).toEqual({ ok: true });
  });

  it('refuses bad values with the key named', () => {
    expect(validateSettingsPatch({ 'lean.memoryMb': 12 })).toMatchObject({ ok: false, error: expect.stringMatching(/^setting lean\.memoryMb: /) });
    expect(validateSettingsPatch({ 'lean.memoryMb': '4096' })).toMatchObject({ ok: false });
    expect(validateSettingsPatch({ 'lean.imports': 'Mathlib; rm -rf /' })).toMatchObject({ ok: false, error: expect.stringMatching(/lean\.imports/) });
    expect(validateSettingsPatch({ 'lean.projectDir': 'relative/dir' })).toMatchObject({ ok: false, error: expect.stringMatching(/absolute/) });
    expect(validateSettingsPatch({ 'isabelle.server': 'a\nb' })).toMatchObject({ ok: false });
    expect(validateSettingsPatch({ 'isabelle.address': 'localhost' })).toMatchObject({ ok: false });
  });

  it('keeps only valid, non-empty settings for the backends', () => {
    expect(proverSettingsFrom({ 'lean.pantograph': ' repl ', 'lean.imports': 'Init Mathlib', 'lean.memoryMb': 2048, 'isabelle.server': 'repl_server.sh', 'isabelle.address': ' 127.0.0.1:6666 ', 'lean.projectDir': '' }))
      .toEqual({ pantograph: 'repl', imports: ['Init', 'Mathlib'], memoryMb: 2048, isabelleServer: 'repl_server.sh', isabelleAddress: '127.0.0.1:6666' });
    expect(proverSettingsFrom({ 'lean.memoryMb': 5, 'lean.projectDir': 'rel', 'lean.memoryMb2': 1 })).toEqual({});
  });
});
