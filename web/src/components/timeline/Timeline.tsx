// The timeline panel: its legend, zoom controls and exports, and the runs on screen.
import { deriveLanes } from '../../model/lanes.js';
import { deriveOverlaps } from '../../model/holders.js';
import { deriveTruth } from '../../model/truth.js';
import { useStore } from '../../store/index.js';
import { selectComparing, selectCurrentEvents } from '../../store/selectors.js';
import { ExportMenu } from '../sharing/ExportMenu.js';
import { Legend, usedShapes } from './Legend.js';
import { TimelineView } from './TimelineView.js';
import { ZoomControls } from './ZoomControls.js';

export function Timeline() {
  const events = useStore(selectCurrentEvents);
  const shown = useStore((s) => s.shown.length > 0);
  const pending = useStore((s) => s.pending.length > 0);
  const comparing = useStore(selectComparing);
  const lanes = deriveLanes(events);
  const overlaps = deriveOverlaps(events);
  const show = !pending && shown && events.length > 0;
  const used = show ? usedShapes(lanes, overlaps.length, deriveTruth(events).size > 0) : null;
  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <div className="panel-head">
        <h2 id="timeline-title">Timeline</h2>
        <Legend used={used} />
      </div>
      {show && (
        <div className="timeline-tools">
          <ZoomControls />
          <ExportMenu />
        </div>
      )}
      {!show ? (
        <p className="timeline-empty">
          {pending
            ? comparing
              ? 'Starting both runs…'
              : 'Starting the workers…'
            : 'Press Run to see the workers race, lane by lane — or open a recorded run.'}
        </p>
      ) : (
        <TimelineView />
      )}
    </section>
  );
}
