// The embed (`?embed=1`): one run, recorded or live, for a blog post or a slide. The verdict
// on top, the timeline filling the frame, and play, pause and step under it; nothing else.
// Sized by its frame, never scrolling the page: the lanes scroll inside the timeline.
import { useEffect } from 'react';
import { useStore } from '../../store/index.js';
import { TimelineView } from '../timeline/TimelineView.js';
import { EmbedControls } from './EmbedControls.js';
import { EmbedVerdict } from './EmbedVerdict.js';

function useEmbedLook() {
  const theme = useStore((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.classList.add('embed');
  }, [theme]);
}

export function EmbedView() {
  const shown = useStore((s) => s.shown.length > 0);
  useEmbedLook();
  return (
    <main className="embed-main">
      <EmbedVerdict />
      <section className="panel timeline embed-timeline" aria-label="Timeline">
        {shown ? <TimelineView /> : <p className="timeline-empty">Nothing on screen yet.</p>}
      </section>
      <EmbedControls />
    </main>
  );
}
