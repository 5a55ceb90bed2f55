// The site's table of contents: every scenario in teaching order, its story in a line, and
// how many recordings it has. Opening one fetches its first recording (a broken variant's).
import { openOnSite } from '../../app/site.js';
import type { SiteChapter } from '../../model/siteChapters.js';
import { useStore } from '../../store/index.js';

export function SiteChapters({ chapters, loaded }: { chapters: readonly SiteChapter[]; loaded: boolean }) {
  const current = useStore((s) => s.scenarioId);
  return (
    <nav className="controls site-chapters" aria-label="Scenarios">
      <h2 className="field-label">Scenarios, in teaching order</h2>
      {!loaded && <p className="offline-hint">Loading the scenarios…</p>}
      <ol>
        {chapters.map(({ scenario, recordings }) => (
          <li key={scenario.id}>
            <button
              type="button"
              aria-current={scenario.id === current ? 'true' : undefined}
              onClick={() => void openOnSite(useStore, chapters, scenario.id, null)}
            >
              <span className="site-chapter-title">{scenario.title}</span>
              <span className="site-chapter-summary">{scenario.summary}</span>
              <span className="site-chapter-count">
                {recordings.length} recorded run{recordings.length === 1 ? '' : 's'}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
