// What the live page and the static site show alike around their stage: the title, the
// page's notice, and the library scorecard in the stage's place while it is open.
import { useStore } from '../store/index.js';
import { ScorecardView } from './scorecard/ScorecardView.js';

export function PageTitle() {
  return (
    <h1>
      racelab <span className="tagline">a lock is a lease; only the data layer prevents damage</span>
    </h1>
  );
}

/** The page's one notice (a recording that did not open, a run the server forgot), if any. */
export function PageNotice() {
  const notice = useStore((s) => s.notice);
  return notice ? (
    <p className="page-notice" role="alert">
      {notice}
    </p>
  ) : null;
}

export function ScorecardMain() {
  return (
    <main className="scorecard-main">
      <ScorecardView />
    </main>
  );
}
