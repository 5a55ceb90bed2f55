// The page: controls on the left, the run (verdict, timeline) in the middle, and the code
// and the explanation below it.
import { LazyMotion, MotionConfig, domAnimation } from 'framer-motion';
import { useStore } from '../store/index.js';
import { selectScenario } from '../store/selectors.js';
import { ConnectionStatus } from './ConnectionStatus.js';
import { ParamsForm } from './controls/ParamsForm.js';
import { RunControls } from './controls/RunControls.js';
import { ScenarioPicker } from './controls/ScenarioPicker.js';
import { VariantPicker } from './controls/VariantPicker.js';
import { CodePanel } from './panels/CodePanel.js';
import { ExplanationPanel } from './panels/ExplanationPanel.js';
import { VerdictPanel } from './panels/VerdictPanel.js';
import { Timeline } from './timeline/Timeline.js';

export function App() {
  const scenario = useStore(selectScenario);
  const loaded = useStore((s) => s.catalog !== null);
  return (
    <LazyMotion features={domAnimation} strict>
      <MotionConfig reducedMotion="user">
        <header className="app-header">
          <h1>
            racelab <span className="tagline">a lock is a lease; only the data layer prevents damage</span>
          </h1>
          <ConnectionStatus />
        </header>
        {loaded ? (
          <main className="app-main">
            <aside className="controls" aria-label="Controls">
              <ScenarioPicker />
              <VariantPicker />
              <ParamsForm />
              <RunControls />
            </aside>
            <div className="stage">
              {scenario && <p className="scenario-summary">{scenario.summary}</p>}
              <VerdictPanel />
              <Timeline />
              <div className="below">
                <CodePanel />
                <ExplanationPanel />
              </div>
            </div>
          </main>
        ) : (
          <main className="app-main loading">
            <p>Waiting for the server’s scenario catalog…</p>
          </main>
        )}
      </MotionConfig>
    </LazyMotion>
  );
}
