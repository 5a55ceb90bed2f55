import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startUrlSync } from './app/urlSync.js';
import { App } from './components/App.js';
import { socketUrl, startSocket } from './socket/client.js';
import { useStore } from './store/index.js';
import './styles/base.css';
import './styles/theme.css';
import './styles/controls.css';
import './styles/timeline.css';
import './styles/panels.css';
import './styles/present.css';

startUrlSync(useStore);
startSocket({ url: socketUrl(window.location), store: useStore });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
