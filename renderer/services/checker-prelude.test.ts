import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { createArborStore } from '../store/store.ts';
import { Checker } from './checker.ts';

/** The project prelude reaches a document's new channel as PRELUDE; a refused project stops with one message. */
function setup(prelude: (uri: string) => Promise<string | undefined>) {
  const store = createArborStore();
  const sent: string[] = [];
  const submit = async (line: string): Promise<ShellResponse[]> => splitRequests(line).map((r) => r.text.trim()).map((req) => {
    sent.push(req);
    if (req === 'NEW_CHANNEL') return { CHANNEL: 0, RESPONSE: { ID: 1 }, ERR: '' };
    return { CHANNEL: 1, RESPONSE: {}, ERR: '', STEP: 1 };
  });
  const checker = new Checker({ store, submit, lines: () => ['GOAL "A"'], recheckDelayMs: 5, prelude });
  store.getState().addDocument({ uri: 'file:///ws/sub/a.arbor', title: 'a.arbor', dirty: false });
  return { store, sent, checker };
}

describe('checker with a project prelude', () => {
  it('sends PRELUDE right after NEW_CHANNEL', async () => {
    const { sent, checker } = setup(async () => 'Require Import ZArith.');
    await checker.runAll('file:///ws/sub/a.arbor');
    expect(sent).toEqual(['NEW_CHANNEL', '1 PRELUDE "Require Import ZArith."', '1 GOAL "A"']);
  });

  it('a refused project opens no channel and shows one error', async () => {
    const { store, sent, checker } = setup(async () => {
      throw new Error('arbor.project.json asks for the lean backend, but this workbench runs coq');
    });
    await checker.runAll('file:///ws/sub/a.arbor');
    expect(sent).toEqual([]);
    const errors = store.getState().messages.list.filter((m) => m.level === 'error').map((m) => m.text);
    expect(errors).toEqual([expect.stringMatching(/asks for the lean backend, but this workbench runs coq/)]);
  });
});
