import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startUrlSync } from './app/urlSync.js';
import { App } from './components/App.js';
import { EmbedView } from './components/embed/EmbedView.js';
import { startEmbedBridge } from './embed/embedBridge.js';
import { isOfflineReplay, readSetup } from './model/urlState.js';
import { socketUrl, startSocket } from './socket/client.js';
import { useStore } from './store/index.js';
import { pageTicks } from './ticks/pageTicks.js';
import './styles/base.css';
import './styles/theme.css';
import './styles/controls.css';
import './styles/timeline.css';
import './styles/panels.css';
import './styles/present.css';
import './styles/scorecard.css';
import './styles/embed.css';

// One page, two ways to show it: the whole playground, or the embed (?embed=1) of one run.
const { embed, origin, replay, run } = readSetup(window.location.search);
if (embed) startEmbedBridge(useStore, origin, replay !== undefined || run !== undefined);
startUrlSync(useStore);
// A link to a recording plays it with no server: no socket, no "reconnecting…".
if (isOfflineReplay(window.location.search)) useStore.getState().setConnection('offline');
// The socket is held by the tick worker where there is one (it draws a live run's events from it).
else startSocket({ url: socketUrl(window.location), store: useStore, WebSocketImpl: pageTicks()?.WebSocket });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(<StrictMode>{embed ? <EmbedView /> : <App />}</StrictMode>);
