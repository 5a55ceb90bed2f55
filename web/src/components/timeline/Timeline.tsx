// The timeline panel: zoom controls and exports (not in presenter mode), the runs on
// screen, and under them the legend of what they draw. The panel is a box of its own size:
// the lanes scroll and pan inside it, and a legend entry that comes mid-run moves no lane.
import { isSite } from '../../app/siteMode.js';
import { useStore } from '../../store/index.js';
import { selectComparing, selectCurrentEvents } from '../../store/selectors.js';
import { ExportMenu } from '../sharing/ExportMenu.js';
import { RunLegend, useLegendByVerdict } from './Legend.js';
import { SelectedEventLine } from './SelectedMark.js';
import { TimelineView } from './TimelineView.js';
import { ZoomControls } from './ZoomControls.js';

export function Timeline() {
  // A boolean, not the log: the panel does not render again for every batch of a live run.
  const hasEvents = useStore((s) => selectCurrentEvents(s).length > 0);
  const shown = useStore((s) => s.shown.length > 0);
  const pending = useStore((s) => s.pending.length > 0);
  const comparing = useStore(selectComparing);
  const presenter = useStore((s) => s.presenter);
  const legendByVerdict = useLegendByVerdict();
  const show = !pending && shown && hasEvents;
  // The view is laid out as soon as the server has taken the run, before its workers are
  // up: the first events then only add lanes and marks, not the whole timeline at once.
  const accepted = !pending && shown;
  const inLine = useStore((s) => s.pending.some((p) => p.queued));
  const starting = inLine ? 'Waiting in line for a run slot…' : comparing ? 'Starting both runs…' : 'Starting the workers…';
  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <div className="panel-head">
        <h2 id="timeline-title">Timeline</h2>
        {show && <ZoomControls />}
        {show && !presenter && <ExportMenu />}
      </div>
      {show && <SelectedEventLine />}
      {!accepted && (
        <p className="timeline-empty">
          {pending
            ? starting
            : isSite()
              ? 'Opening the recorded run…'
              : 'Press Run to see the workers race, lane by lane — or open a recorded run.'}
        </p>
      )}
      {accepted && <TimelineView />}
      {accepted && !hasEvents && <p className="timeline-empty starting">{starting}</p>}
      {/* In presenter mode the legend sits beside the verdict, on a phone under it. */}
      {!legendByVerdict && <RunLegend only />}
    </section>
  );
}
