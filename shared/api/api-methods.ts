/** The workbench API's method names, without zod (preload, sandboxed, must stay small). */
export const API_METHODS = [
  'shell.submit',
  'shell.channels',
  'shell.tree',
  'app.info',
  'files.read',
  'files.write',
  'files.list',
  'files.pickOpen',
  'files.pickSave',
  'recovery.save',
  'recovery.list',
  'recovery.discard',
  'settings.get',
  'settings.set',
  'recent.list',
  'provers.detect',
  'agent.focus',
  'agent.suggestions',
  'agent.decide',
  'agent.history',
  'agent.runSources',
  'agent.mcpInfo',
  'agent.setReference',
  'fidelity.check',
] as const;

export type ApiMethodName = (typeof API_METHODS)[number];
