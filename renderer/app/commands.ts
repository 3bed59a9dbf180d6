import type { MenuCommand } from '../../shared/api/api-contract.ts';
import { cursorLine } from '../editor/editor-pane.tsx';
import { pickOpenFile, readFile } from '../services/arbor-api.ts';
import { checker, loadTranscriptText, newDocument, openPath, saveDocument } from '../services/workbench.ts';
import { exportPng, exportSvg } from '../tree/tree-export.ts';
import { useArbor } from '../store/store.ts';
import { fitTree } from '../tree/tree-pane.tsx';

/** Every menu item, toolbar button and shortcut runs one of these (Electron menus send the same names). */
export async function runCommand(command: MenuCommand, arg?: string): Promise<void> {
  const s = useArbor.getState();
  const uri = s.documents.activeUri;
  switch (command) {
    case 'file.new': newDocument(); break;
    case 'file.open': {
      const path = await pickOpenFile().catch(() => null);
      if (path) await openPath(path);
      else s.setOpenDialog('open');
      break;
    }
    case 'file.openPath': if (arg) await openPath(arg); break;
    case 'file.save': if (uri) await saveDocument(uri); break;
    case 'file.saveAs': if (uri) await saveDocument(uri, true); break;
    case 'file.openTranscript': {
      s.setBottomTab('transcript');
      // Electron: the native dialog (a menu click is no user gesture for a file input); web: the file input.
      const path = await pickOpenFile(['jsonl', 'json', 'txt']).catch(() => null);
      if (path) {
        const file = await readFile(path).catch((err: Error) => { s.addMessage('error', `open transcript: ${err.message}`); return null; });
        if (file) await loadTranscriptText(file.path.split(/[\\/]/).pop() ?? file.path, file.text);
      } else document.querySelector<HTMLInputElement>('[data-testid="transcript-file"]')?.click();
      break;
    }
    case 'proof.stepForward': if (uri) await checker.stepForward(uri); break;
    case 'proof.stepBack': if (uri) await checker.stepBack(uri); break;
    case 'proof.runToCursor': if (uri) await checker.runTo(uri, cursorLine()); break;
    case 'proof.runAll': if (uri) await checker.runAll(uri); break;
    case 'proof.cancel': if (uri) await checker.cancel(uri); break;
    case 'proof.restart': if (uri) await checker.restart(uri); break;
    case 'view.fit': fitTree(); break;
    case 'view.search': document.querySelector<HTMLInputElement>('.tree-search')?.focus(); break;
    case 'view.exportSvg': exportSvg(); break;
    case 'view.exportPng': exportPng(); break;
    case 'help.commands': s.setShowHelp(true); break;
  }
}
