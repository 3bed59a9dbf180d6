import { Menu, app } from 'electron';
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/api/api-contract.ts';

/** File / Edit / Proof / View / Help, with shortcuts; commands go to the renderer as `menu` events. */
export function buildAppMenu(send: (command: MenuCommand, arg?: string) => void, recent: string[]): Menu {
  const item = (label: string, command: MenuCommand, accelerator?: string): MenuItemConstructorOptions =>
    ({ label, click: () => send(command), ...(accelerator ? { accelerator } : {}) });
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        item('New', 'file.new', 'CmdOrCtrl+N'),
        item('Open…', 'file.open', 'CmdOrCtrl+O'),
        {
          label: 'Open Recent',
          submenu: recent.length
            ? recent.map((path) => ({ label: path, click: () => send('file.openPath', path) }))
            : [{ label: 'No recent files', enabled: false }],
        },
        { type: 'separator' },
        item('Save', 'file.save', 'CmdOrCtrl+S'),
        item('Save As…', 'file.saveAs', 'CmdOrCtrl+Shift+S'),
        { type: 'separator' },
        item('Open Transcript…', 'file.openTranscript', 'CmdOrCtrl+Shift+O'),
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' }, { role: 'redo' }, { type: 'separator' },
        { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' },
      ],
    },
    {
      label: 'Proof',
      submenu: [
        item('Step Forward', 'proof.stepForward', 'CmdOrCtrl+Alt+Down'),
        item('Step Back', 'proof.stepBack', 'CmdOrCtrl+Alt+Up'),
        item('Run to Cursor', 'proof.runToCursor', 'CmdOrCtrl+Alt+Enter'),
        item('Run All', 'proof.runAll', 'CmdOrCtrl+Alt+End'),
        { type: 'separator' },
        item('Cancel Running Command', 'proof.cancel', 'CmdOrCtrl+.'),
        item('Restart Proof', 'proof.restart'),
      ],
    },
    {
      label: 'View',
      submenu: [
        item('Fit Tree to View', 'view.fit', 'CmdOrCtrl+0'),
        item('Search Tree', 'view.search', 'CmdOrCtrl+Shift+F'),
        { type: 'separator' },
        item('Export Tree as SVG…', 'view.exportSvg'),
        item('Export Tree as PNG…', 'view.exportPng'),
        { type: 'separator' },
        { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'resetZoom' }, { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ type: 'separator' as const }, { role: 'toggleDevTools' as const }]),
      ],
    },
    {
      label: 'Help',
      submenu: [
        item('Shell Commands', 'help.commands', 'F1'),
        { label: `Arbor ${app.getVersion()}`, enabled: false },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
