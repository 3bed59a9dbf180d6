import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { followActiveDocument } from './services/agent.ts';
import { followReferences } from './services/fidelity.ts';
import { startWorkbench } from './services/workbench.ts';
import './styles.css';

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
void startWorkbench();
followActiveDocument();
followReferences();
