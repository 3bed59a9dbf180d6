import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Group, Panel, Separator, useGroupRef } from 'react-resizable-panels';
import { loadLayouts, parseSavedLayout, saveLayout } from './layout-sizes.ts';
import { COMMAND_DOCS } from '../../shared/language/command-docs.ts';
import { EditorPane } from '../editor/editor-pane.tsx';
import { ChannelsPanel } from '../panels/channels-panel.tsx';
import { FidelityPanel } from '../panels/fidelity-panel.tsx';
import { FileDialog } from '../panels/file-dialog.tsx';
import { CloseDialog } from '../panels/close-dialog.tsx';
import { GoalsPanel } from '../panels/goals-panel.tsx';
import { Inspector } from '../panels/inspector.tsx';
import { MessagesPanel } from '../panels/messages-panel.tsx';
import { ProversButton } from '../panels/provers-page.tsx';
import { SearchPanel } from '../panels/search-panel.tsx';
import { SuggestionsPanel } from '../panels/suggestions-panel.tsx';
import { TranscriptPanel } from '../panels/transcript-panel.tsx';
import { VFilePanel } from '../panels/v-file-panel.tsx';
import { VFileSource } from '../panels/v-file-source.tsx';
import { ProjectTrustBanner } from '../panels/project-trust.tsx';
import { onMenuCommand } from '../services/arbor-api.ts';
import { closeDocument } from '../services/workbench.ts';
import { selectAppInfo } from '../store/channels-slice.ts';
import { selectActiveCheck } from '../store/checking-slice.ts';
import { selectActiveUri, selectDocumentOrder, selectDocuments } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectPendingSuggestions } from '../store/suggestions-slice.ts';
import type { BottomTab } from '../store/ui-slice.ts';
import { selectBottomTab, selectShowHelp, selectTreeMaximized } from '../store/ui-slice.ts';
import { TreePane } from '../tree/tree-pane.tsx';
import { runCommand } from './commands.ts';
import { OTHER_MARKS, STATUS_LEGEND } from '../tree/marks.ts';

const TABS: { id: BottomTab; label: string }[] = [
  { id: 'messages', label: 'Messages' }, { id: 'transcript', label: 'Transcript' },
  { id: 'channels', label: 'Channels' }, { id: 'suggestions', label: 'Suggestions' },
  { id: 'fidelity', label: 'Fidelity' }, { id: 'search', label: 'Search' }, { id: 'vfile', label: '.v file' },
];

function Toolbar() {
  const check = useArbor(selectActiveCheck);
  const info = useArbor(selectAppInfo);
  const b = (label: string, title: string, run: () => void, testid?: string) => (
    <button type="button" title={title} onClick={run} {...(testid ? { 'data-testid': testid } : {})}>{label}</button>
  );
  return (
    <header className="toolbar">
      <span className="brand">Arbor</span>
      {b('New', 'New (Ctrl+N)', () => void runCommand('file.new'), 'new')}
      {b('Open…', 'Open (Ctrl+O)', () => void runCommand('file.open'), 'open')}
      {b('Save', 'Save (Ctrl+S)', () => void runCommand('file.save'), 'save')}
      <span className="sep" />
      {b('Restart', 'Restart the proof on a fresh channel', () => void runCommand('proof.restart'))}
      {b('▲ Back', 'Step back (Ctrl+Alt+↑)', () => void runCommand('proof.stepBack'), 'step-back')}
      {b('▼ Step', 'Step forward (Ctrl+Alt+↓)', () => void runCommand('proof.stepForward'), 'step-forward')}
      {b('▶| To cursor', 'Run to cursor (Ctrl+Alt+Enter)', () => void runCommand('proof.runToCursor'), 'run-to-cursor')}
      {b('▶▶ Run all', 'Run all (Ctrl+Alt+End)', () => void runCommand('proof.runAll'), 'run-all')}
      {check.running && b('■ Cancel', 'Cancel the running command', () => void runCommand('proof.cancel'))}
      <span className="spacer" />
      <span className={`backend ${info?.backendAvailable ? 'ok' : 'missing'}`} title={info?.problems.join('\n')}>{info ? `${info.backend}${info.backendAvailable ? '' : ' (unavailable)'}` : 'connecting…'}</span>
      <ProversButton />
      {b('?', 'Commands (F1)', () => void runCommand('help.commands'))}
    </header>
  );
}

/**
 * The open documents as tabs: the active one is always scrolled into view; when they do not all fit, a
 * menu lists every document (and the wheel scrolls the strip sideways).
 */
function DocumentTabs() {
  const order = useArbor(selectDocumentOrder);
  const docs = useArbor(selectDocuments);
  const active = useArbor(selectActiveUri);
  const strip = useRef<HTMLElement>(null);
  const menu = useRef<HTMLDetailsElement>(null);
  const [overflow, setOverflow] = useState(false);
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const measure = (): void => setOverflow(el.scrollWidth > el.clientWidth + 1);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [order.length]);
  useEffect(() => {
    const tab = active ? strip.current?.querySelector<HTMLElement>(`[data-uri="${CSS.escape(active)}"]`) : null;
    tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active, order.length]);
  return (
    <div className="doc-tabs-bar">
      <nav
        className="doc-tabs" ref={strip} data-testid="doc-tabs"
        onWheel={(e) => { if (strip.current && Math.abs(e.deltaY) > Math.abs(e.deltaX)) strip.current.scrollLeft += e.deltaY; }}
      >
        {order.map((uri) => {
          const d = docs[uri];
          if (!d) return null;
          return (
            <span key={uri} className={`doc-tab${uri === active ? ' active' : ''}`} data-testid="doc-tab" data-uri={uri}>
              <button type="button" onClick={() => useArbor.getState().setActiveDocument(uri)} title={d.path ?? d.title}>{d.dirty ? '● ' : ''}{d.title}</button>
              <button type="button" className="close" aria-label={`close ${d.title}`} onClick={() => void closeDocument(uri)}>×</button>
            </span>
          );
        })}
      </nav>
      {overflow && (
        <details className="menu tab-menu" ref={menu}>
          <summary data-testid="tab-overflow" title="All open documents">{order.length}</summary>
          <div className="menu-items">
            {order.map((uri) => (
              <button
                key={uri} type="button" data-testid="tab-overflow-item" className={uri === active ? 'active' : ''}
                onClick={() => { useArbor.getState().setActiveDocument(uri); if (menu.current) menu.current.open = false; }}
              >{docs[uri]?.dirty ? '● ' : ''}{docs[uri]?.title}</button>
            ))}
          </div>
        </details>
      )}
    </div>
  );
}

function BottomPanels() {
  const tab = useArbor(selectBottomTab);
  const pending = useArbor(selectPendingSuggestions);
  return (
    <section className="bottom">
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} className={tab === t.id ? 'active' : ''} onClick={() => useArbor.getState().setBottomTab(t.id)} data-testid={`tab-${t.id}`}>
            {t.label}{t.id === 'suggestions' && pending ? ` (${pending})` : ''}
          </button>
        ))}
      </div>
      <div className="tab-body">
        {tab === 'messages' && <MessagesPanel />}
        {tab === 'transcript' && <TranscriptPanel />}
        {tab === 'channels' && <ChannelsPanel />}
        {tab === 'suggestions' && <SuggestionsPanel />}
        {tab === 'fidelity' && <FidelityPanel />}
        {tab === 'search' && <SearchPanel />}
        {tab === 'vfile' && <VFilePanel />}
      </div>
    </section>
  );
}

function Help() {
  const show = useArbor(selectShowHelp);
  if (!show) return null;
  return (
    <div className="dialog-backdrop" onClick={() => useArbor.getState().setShowHelp(false)}>
      <div className="dialog help" role="dialog" aria-label="Commands">
        <h3>Proof shell commands</h3>
        <table>
          <tbody>{Object.entries(COMMAND_DOCS).map(([name, d]) => <tr key={name}><td><code>{d.syntax}</code></td><td>{d.summary}</td></tr>)}</tbody>
        </table>
        <h3>Marks</h3>
        <table data-testid="help-marks">
          <tbody>
            {STATUS_LEGEND.map((st) => (
              <tr key={st.status}><td><span className="legend-item"><i style={{ background: st.fill, borderColor: st.stroke }} />{st.label}</span></td><td>{st.meaning}</td></tr>
            ))}
            {OTHER_MARKS.map((m) => <tr key={m.mark}><td><code>{m.mark}</code></td><td>{m.meaning}</td></tr>)}
          </tbody>
        </table>
        <p className="muted">Keys: Ctrl+Alt+↓ step · Ctrl+Alt+↑ back · Ctrl+Alt+Enter to cursor · Ctrl+Alt+End run all · Ctrl+S save · Ctrl+O open · Ctrl+G go to line · Ctrl+Space complete (inside a tactic: hypotheses and lemmas) · F fit tree · double-click a node to collapse it.</p>
      </div>
    </div>
  );
}

export function App() {
  const maximized = useArbor(selectTreeMaximized);
  useEffect(() => {
    const off = onMenuCommand((c, arg) => void runCommand(c, arg));
    const onKey = (e: KeyboardEvent): void => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.altKey && e.key.toLowerCase() === 's') { e.preventDefault(); void runCommand(e.shiftKey ? 'file.saveAs' : 'file.save'); }
      else if (mod && !e.altKey && e.key.toLowerCase() === 'o') { e.preventDefault(); void runCommand('file.open'); }
      else if (mod && e.altKey && e.key.toLowerCase() === 'n') { e.preventDefault(); void runCommand('file.new'); }
      else if (e.key === 'F1') { e.preventDefault(); void runCommand('help.commands'); }
      else if (e.key === 'Escape') { useArbor.getState().setTreeMaximized(false); useArbor.getState().setShowHelp(false); useArbor.getState().setOpenDialog(null); useArbor.getState().setClosing(null); }
      else if (e.key.toLowerCase() === 'f' && !mod && (e.target as HTMLElement).tagName === 'CANVAS') fitTreeKey();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      off();
      window.removeEventListener('keydown', onKey);
    };
  }, []);
  // Pane sizes: the user's saved ones once the host answers (the defaults until then).
  const columns = useGroupRef();
  const rows = useGroupRef();
  useEffect(() => {
    void loadLayouts().then((saved) => {
      const c = parseSavedLayout(saved['layout.columns'], COLUMN_PANES);
      const r = parseSavedLayout(saved['layout.rows'], ROW_PANES);
      if (c) columns.current?.setLayout(c);
      if (r) rows.current?.setLayout(r);
    });
  }, [columns, rows]);
  return (
    <div className={maximized ? 'app tree-maximized' : 'app'}>
      <Toolbar />
      <ProjectTrustBanner />
      <Group
        className="rows" orientation="vertical" groupRef={rows} id="rows"
        onLayoutChanged={(layout, meta) => { if (meta.isUserInteraction) saveLayout('layout.rows', layout); }}
      >
        <Panel id="pane-workspace" minSize={220}>
          <Group
            className="workspace" orientation="horizontal" groupRef={columns} id="columns"
            onLayoutChanged={(layout, meta) => { if (meta.isUserInteraction) saveLayout('layout.columns', layout); }}
          >
            <Panel id="pane-editor" defaultSize="34%" minSize={220} className="editor-column">
              <DocumentTabs />
              <EditorPane />
              <VFileSource />
            </Panel>
            <Separator className="splitter vertical" data-testid="splitter-editor" />
            <Panel id="pane-tree" minSize={280} className="center"><TreePane /></Panel>
            <Separator className="splitter vertical" data-testid="splitter-inspector" />
            <Panel id="pane-inspector" defaultSize="24%" minSize={200} className="inspector-panel"><div className="inspector-column"><GoalsPanel /><Inspector /></div></Panel>
          </Group>
        </Panel>
        <Separator className="splitter horizontal" data-testid="splitter-dock" />
        <Panel id="pane-dock" defaultSize="28%" minSize={90} className="dock-panel"><BottomPanels /></Panel>
      </Group>
      <FileDialog />
      <CloseDialog />
      <Help />
    </div>
  );
}

// Prefixed: a panel's id is also its data-testid, and 'editor' and 'inspector' name other elements.
const COLUMN_PANES = ['pane-editor', 'pane-tree', 'pane-inspector'] as const;
const ROW_PANES = ['pane-workspace', 'pane-dock'] as const;

function fitTreeKey(): void {
  void runCommand('view.fit');
}
