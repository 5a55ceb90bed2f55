// The site's stage: the open scenario, its recordings (broken and correct, each with its
// verdict), Replay and the speed, then the live page's own timeline, verdict, code and
// explanation, drawn from the recording on screen.
import { openOnSite } from '../../app/site.js';
import { recordingWords, type SiteChapter } from '../../model/siteChapters.js';
import { replayShown } from '../../replay/player.js';
import { useStore } from '../../store/index.js';
import { selectCurrentRun, selectScenario } from '../../store/selectors.js';
import { SpeedControl } from '../controls/SpeedControl.js';
import { ExerciseEntry } from '../exercise/ExerciseEntry.js';
import { ExerciseSlot } from '../exercise/ExerciseSlot.js';
import { CodePanel } from '../panels/CodePanel.js';
import { ExplanationPanel } from '../panels/ExplanationPanel.js';
import { VerdictPanel } from '../panels/VerdictPanel.js';
import { BackToScorecard } from '../scorecard/ScorecardButtons.js';
import { LegendByVerdict } from '../timeline/Legend.js';
import { Timeline } from '../timeline/Timeline.js';

/** "FAIL" or "PASS", as the recording's title ends (npm run recordings writes it). */
const verdictOfTitle = (title: string): string | null => /— (PASS|FAIL)$/.exec(title)?.[1] ?? null;

function Recordings({ chapter }: { chapter: SiteChapter }) {
  const shownFile = useStore((s) => selectCurrentRun(s)?.file ?? null);
  const hasRun = useStore((s) => s.shown.length > 0);
  const speed = useStore((s) => s.speed);
  return (
    <div className="site-recordings">
      <div className="site-recording-list" role="group" aria-label="Recorded runs of this scenario">
        {chapter.recordings.map((r) => {
          const verdict = verdictOfTitle(r.title);
          return (
            <button
              key={r.file}
              type="button"
              className={`site-recording ${r.correct ? 'correct' : 'broken'}`}
              aria-pressed={r.file === shownFile}
              title={r.title}
              onClick={() => void openOnSite(useStore, [chapter], chapter.scenario.id, r.variant)}
            >
              {recordingWords(r)}
              {verdict && <span className="site-recording-verdict"> — {verdict}</span>}
            </button>
          );
        })}
        {chapter.recordings.length === 0 && <p className="offline-hint">No recorded run of this scenario is shipped.</p>}
      </div>
      <div className="site-replay">
        <button
          type="button"
          className="run"
          disabled={!hasRun}
          aria-keyshortcuts="Space"
          title={`Plays the run on screen again as it happened, at ${speed}× (Space)`}
          onClick={() => replayShown(useStore, speed)}
        >
          Replay
        </button>
        <SpeedControl />
      </div>
    </div>
  );
}

export function SiteStage({ chapters }: { chapters: readonly SiteChapter[] }) {
  const scenario = useStore(selectScenario);
  const chapter = chapters.find((c) => c.scenario.id === scenario?.id);
  // The site has no server: its exercise is the broken code to read, and the command that grades a fix.
  const exercise = useStore((s) => s.exercise !== null);
  return (
    <div className="stage site-stage">
      <BackToScorecard />
      {exercise ? (
        <ExerciseSlot />
      ) : (
        scenario && (
          <div className="site-scenario">
            <h2>{scenario.title}</h2>
            <p className="scenario-summary">{scenario.summary}</p>
            <ExerciseEntry />
          </div>
        )
      )}
      {chapter && <Recordings chapter={chapter} />}
      <Timeline />
      <div className="verdict-area">
        <VerdictPanel />
        <LegendByVerdict />
      </div>
      <div className="below">
        {!exercise && <CodePanel />}
        <ExplanationPanel />
      </div>
    </div>
  );
}
