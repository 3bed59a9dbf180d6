import { describe, expect, it } from 'vitest';
import { apiParamSchemas, validateApiCall } from './api-contract.ts';
import { API_METHODS } from './api-methods.ts';

describe('API validation', () => {
  it('accepts a well-formed call', () => {
    expect(validateApiCall('shell.submit', { line: 'GOAL "A"' })).toMatchObject({ ok: true, method: 'shell.submit' });
    expect(validateApiCall('shell.channels', undefined)).toMatchObject({ ok: true });
  });

  it('rejects unknown methods, prototype keys and bad parameters', () => {
    expect(validateApiCall('shell.exec', {})).toMatchObject({ ok: false });
    expect(validateApiCall('__proto__', {})).toMatchObject({ ok: false });
    expect(validateApiCall('toString', {})).toMatchObject({ ok: false });
    expect(validateApiCall(42, {})).toMatchObject({ ok: false });
    expect(validateApiCall('shell.submit', { line: 3 })).toMatchObject({ ok: false });
    expect(validateApiCall('shell.tree', { channel: -1 })).toMatchObject({ ok: false });
    expect(validateApiCall('files.read', { path: 'a\u0000b' })).toMatchObject({ ok: false });
    // Extra keys are refused, not silently dropped.
    expect(validateApiCall('shell.submit', { line: 'x', shell: '/bin/sh' })).toMatchObject({ ok: false });
    expect(validateApiCall('fidelity.check', { canonical: 'True', candidate: 'True', backend: 'coq' })).toMatchObject({ ok: true });
    expect(validateApiCall('fidelity.check', { canonical: '', candidate: 'True' })).toMatchObject({ ok: false });
    expect(validateApiCall('fidelity.check', { canonical: 'True', candidate: 'True', backend: 'isabelle' })).toMatchObject({ ok: false });
    expect(validateApiCall('agent.setReference', { channel: 0, statement: null })).toMatchObject({ ok: true });
  });
});

describe('method list', () => {
  it('names exactly the methods that have schemas (preload refuses the rest)', () => {
    expect([...API_METHODS].sort()).toEqual(Object.keys(apiParamSchemas).sort());
  });
});
