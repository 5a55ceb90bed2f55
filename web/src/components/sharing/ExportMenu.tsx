// Files for the tools engineers already use, from the runs on screen: the run itself (to
// open again here), a Perfetto / Chrome DevTools trace, a Jepsen-style history, and the
// visible timeline as SVG or PNG for slides, and the <iframe> that embeds the run (EmbedItem).
import { createRecording } from '@racelab/shared';
import { useState } from 'react';
import { downloadBlob, downloadText, fileStem } from '../../app/download.js';
import { chromeTrace } from '../../model/export/chromeTrace.js';
import { jepsenHistory } from '../../model/export/jepsenHistory.js';
import { timelineSvg } from '../../model/export/timelineSvg.js';
import { useStore, type State } from '../../store/index.js';
import { scenarioOfRun } from '../../store/selectors.js';
import type { RunRecord } from '../../store/types.js';
import { currentView } from '../../view/viewActions.js';
import { runTitle } from '../panels/runTitle.js';
import { EmbedItem } from './EmbedItem.js';
import { svgToPng } from './svgToPng.js';

function shownRuns(s: State): RunRecord[] {
  return s.shown.map((id) => s.runs[id]).filter((r): r is RunRecord => !!r && r.events.length > 0);
}

const title = (s: State, r: RunRecord) => runTitle(scenarioOfRun(s, r), r.scenario, r.variant);

function exportSvg(s: State) {
  const runs = shownRuns(s).map((r) => ({ title: title(s, r), events: r.events, scenario: scenarioOfRun(s, r) }));
  const width = Math.max(1000, Math.round(document.querySelector('.tl-body')?.clientWidth ?? 1400));
  return timelineSvg(runs, currentView(), width, s.theme === 'dark' ? 'dark' : 'light');
}

export function ExportMenu() {
  const [error, setError] = useState<string | null>(null);
  const get = useStore.getState;
  const stem = () => {
    const runs = shownRuns(get());
    return runs.length === 1 ? fileStem(runs[0]!.scenario, runs[0]!.variant) : fileStem(runs[0]?.scenario ?? 'runs', 'compare');
  };
  const recording = () => {
    const s = get();
    for (const r of shownRuns(s)) {
      const scenario = scenarioOfRun(s, r);
      if (!scenario) continue;
      downloadText(
        `${fileStem(r.scenario, r.variant)}.json`,
        JSON.stringify(createRecording(scenario, r.variant, r.events, new Date())),
        'application/json',
      );
    }
  };
  const trace = () => {
    const s = get();
    const runs = shownRuns(s).map((r) => ({ label: title(s, r), events: r.events }));
    downloadText(`${stem()}.trace.json`, JSON.stringify(chromeTrace(runs, new Date())), 'application/json');
  };
  const history = () => {
    for (const r of shownRuns(get()))
      downloadText(`${fileStem(r.scenario, r.variant)}.history.edn`, jepsenHistory(r.events), 'application/edn');
  };
  const svg = () => {
    const { svg } = exportSvg(get());
    downloadText(`${stem()}.timeline.svg`, svg, 'image/svg+xml');
  };
  const png = async () => {
    try {
      const { svg, width, height } = exportSvg(get());
      downloadBlob(`${stem()}.timeline.png`, await svgToPng(svg, width, height));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    // Collapsed until asked for: the buttons open over the timeline and move nothing.
    <details className="export-menu">
      <summary>Export</summary>
      <div className="export-buttons" role="toolbar" aria-label="Export">
        <button type="button" onClick={recording} title="The run's events and its scenario: open it again here, with no server (D)">
          Download recording
        </button>
        <button
          type="button"
          onClick={trace}
          title="Chrome Trace Event JSON: open it in ui.perfetto.dev or in Chrome DevTools (Performance, Load profile)"
        >
          Export Perfetto trace
        </button>
        <button type="button" onClick={history} title="Jepsen-style history (EDN, one op per line) for offline checkers">
          Export Jepsen history
        </button>
        <button type="button" onClick={svg} title="The visible timeline as SVG, for slides">
          Export SVG
        </button>
        <button type="button" onClick={() => void png()} title="The visible timeline as PNG (2×), for slides">
          Export PNG
        </button>
        <EmbedItem />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </details>
  );
}
