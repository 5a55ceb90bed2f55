import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { fetchExercises } from './app/exercises.js';
import { startSite } from './app/site.js';
import { siteCatalogUrl } from './app/siteMode.js';
import { startUrlSync } from './app/urlSync.js';
import { App } from './components/App.js';
import { EmbedView } from './components/embed/EmbedView.js';
import { SiteApp } from './components/site/SiteApp.js';
import { startEmbedBridge } from './embed/embedBridge.js';
import { isOfflineReplay, readSetup } from './model/urlState.js';
import { socketUrl, startSocket } from './socket/client.js';
import { useStore } from './store/index.js';
import { pageTicks } from './ticks/pageTicks.js';
import './styles/base.css';
import './styles/theme.css';
import './styles/controls.css';
import './styles/drawer.css';
import './styles/timeline.css';
import './styles/panels.css';
import './styles/present.css';
import './styles/scorecard.css';
import './styles/site.css';
import './styles/embed.css';
import './styles/exercise.css';

// One page, three ways to show it: the whole playground, the static site, or the embed (?embed=1) of one run.
const { embed, origin, replay, run } = readSetup(window.location.search);
if (embed) startEmbedBridge(useStore, origin, replay !== undefined || run !== undefined);
startUrlSync(useStore);
// One page, two ways to get events. The static site (its index.html names its catalog) has
// no server: recordings only, no socket, ever.
const catalogUrl = siteCatalogUrl();
const site = catalogUrl ? startSite(useStore, catalogUrl, window.location.search) : null;
// A link to a recording plays it with no server: no socket, no "reconnecting…".
if (site || isOfflineReplay(window.location.search)) useStore.getState().setConnection('offline');
// The socket is held by the tick worker where there is one (it draws a live run's events from it).
else startSocket({ url: socketUrl(document.baseURI), store: useStore, WebSocketImpl: pageTicks()?.WebSocket });

// Exercises: whether this server runs edited code, and each scenario's (the embed has none).
if (embed) useStore.getState().setExercises({ state: 'no-server', why: 'An embedded run has no exercises.' });
else void fetchExercises().then((answer) => useStore.getState().setExercises(answer));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(<StrictMode>{embed ? <EmbedView /> : site ? <SiteApp loading={site} /> : <App />}</StrictMode>);
