import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { setInspector } from './ui/inspect.ts';
import './ui/app.css';

/**
 * In the development server, `?inspect` opens the Stately inspector and connects every machine
 * to it. The import sits behind `import.meta.env.DEV`, so production builds do not carry it.
 */
async function connectInspector(): Promise<void> {
  if (!import.meta.env.DEV || !new URLSearchParams(window.location.search).has('inspect')) return;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  setInspector(createBrowserInspector().inspect);
}

const root = document.getElementById('root');
if (!root) throw new Error('Pinmap: the page has no #root element');
void connectInspector()
  .catch((error: unknown) => console.warn('Pinmap: the Stately inspector could not start:', error))
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
