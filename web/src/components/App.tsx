// The page: controls on the left (Run always in sight); the stage beside them: the
// timeline with the verdict in a column beside it (under it on a narrower screen), then the
// variant's code and the explanation. On a narrow screen (a phone) the controls are a drawer
// one tap away, and a bar with Run sits over the stage: the first screen shows the race. Presenter mode keeps the stage only, fitted to the screen: a bar with the
// chapter and Run, the timeline, and a verdict area of fixed size, so nothing moves when a
// verdict arrives. With no server the page still opens recorded runs. The lock libraries'
// scorecard takes the playground's place while it is open; each of its cells replays a run.
import { useEffect } from 'react';
import { useShortcuts } from '../app/useShortcuts.js';
import { STACKED, useStageInSightOnRun } from '../app/stageInSight.js';
import { useMedia } from '../app/useMedia.js';
import { useStore } from '../store/index.js';
import { selectScenario, selectVariant } from '../store/selectors.js';
import { ConnectionStatus } from './ConnectionStatus.js';
import { CompareControl } from './controls/CompareControl.js';
import { ExerciseEntry } from './exercise/ExerciseEntry.js';
import { ExerciseSlot } from './exercise/ExerciseSlot.js';
import { ControlsDrawer } from './controls/ControlsDrawer.js';
import { FaultPlanEditor } from './controls/FaultPlanEditor.js';
import { ParamsForm } from './controls/ParamsForm.js';
import { RunControls } from './controls/RunControls.js';
import { ScenarioPicker } from './controls/ScenarioPicker.js';
import { SetupBar } from './controls/SetupBar.js';
import { SpeedControl } from './controls/SpeedControl.js';
import { VariantPicker } from './controls/VariantPicker.js';
import { CodePanel } from './panels/CodePanel.js';
import { ExplanationPanel } from './panels/ExplanationPanel.js';
import { VerdictPanel } from './panels/VerdictPanel.js';
import { PageNotice, PageTitle, ScorecardMain } from './PageParts.js';
import { PresentControls } from './present/PresentControls.js';
import { ShortcutsDialog } from './present/ShortcutsDialog.js';
import { StageBar } from './present/StageBar.js';
import { BackToScorecard, ScorecardToggle } from './scorecard/ScorecardButtons.js';
import { RecordingControls } from './sharing/RecordingControls.js';
import { LegendByVerdict } from './timeline/Legend.js';
import { Timeline } from './timeline/Timeline.js';

/** The scenario's summary and the way into its exercise, or the open exercise in their place. */
export function ScenarioHead({ presenter }: { presenter: boolean }) {
  const scenario = useStore(selectScenario);
  const variant = useStore(selectVariant);
  const exercise = useStore((s) => s.exercise !== null);
  if (exercise) return <ExerciseSlot />;
  if (presenter || !scenario) return null;
  // The whole scenario, or only the chosen variant (a command this server's Redis lacks).
  const unavailable = scenario.unavailable ?? (variant?.unavailable && `${variant.id}: ${variant.unavailable}`);
  return (
    <div className="scenario-head">
      <p className="scenario-summary">{scenario.summary}</p>
      {unavailable && (
        <p className="scenario-unavailable" role="note">
          Unavailable on this server: {unavailable}
        </p>
      )}
      <ExerciseEntry />
    </div>
  );
}

export function useDocumentLook() {
  const presenter = useStore((s) => s.presenter);
  const theme = useStore((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.classList.toggle('presenter', presenter);
  }, [presenter, theme]);
}

function Verdicts() {
  const shown = useStore((s) => s.shown.join(' '));
  const ids = shown ? shown.split(' ') : [];
  if (ids.length < 2) return <VerdictPanel />;
  return (
    <div className="verdicts">
      {ids.map((id) => (
        <VerdictPanel key={id} runId={id} named />
      ))}
    </div>
  );
}

export function App() {
  const loaded = useStore((s) => s.catalog !== null);
  const hasRun = useStore((s) => s.shown.length > 0 || s.pending.length > 0);
  const presenter = useStore((s) => s.presenter);
  const scorecard = useStore((s) => s.scorecard);
  const exercise = useStore((s) => s.exercise !== null);
  // The controls' drawer and the bar over the stage replace the column (not in presenter mode).
  const drawer = useMedia(STACKED) && !presenter;
  useShortcuts();
  useDocumentLook();
  useStageInSightOnRun();
  return (
    <>
      {!presenter && (
        <header className="app-header">
          <PageTitle />
          <div className="header-right">
            <ScorecardToggle />
            <PresentControls />
            <ConnectionStatus />
          </div>
        </header>
      )}
      <PageNotice />
      {scorecard ? (
        <ScorecardMain />
      ) : (
        <main className={`app-main${presenter ? ' presenting' : ''}`}>
          {/* Hidden, not left out, in presenter mode: O still opens a recording from it. */}
          <ControlsDrawer drawer={drawer}>
            {loaded ? (
              <>
                <ScenarioPicker />
                <VariantPicker />
                <ParamsForm />
                <FaultPlanEditor />
                <SpeedControl />
                {!drawer && <RunControls />}
                <CompareControl />
              </>
            ) : (
              <p className="offline-hint">Waiting for the server’s scenario catalog… Recorded runs open without it.</p>
            )}
            <RecordingControls />
          </ControlsDrawer>
          <div className="stage">
            <BackToScorecard />
            {presenter && <StageBar />}
            {drawer && <SetupBar />}
            <ScenarioHead presenter={presenter} />
            {(loaded || hasRun) && (
              <>
                <Timeline />
                <div className="verdict-area">
                  <Verdicts />
                  <LegendByVerdict />
                </div>
                {!presenter && (
                  <div className="below">
                    {/* The open exercise's editor holds the code. */}
                    {!exercise && <CodePanel />}
                    <ExplanationPanel />
                  </div>
                )}
              </>
            )}
          </div>
        </main>
      )}
      <ShortcutsDialog />
    </>
  );
}
