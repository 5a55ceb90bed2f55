// Live faults on a worker's real process, in its lane: pause (SIGSTOP) / resume (SIGCONT)
// and kill (SIGKILL). Shown while the run is in progress; the server answers with events.
import { Icon } from '../icons/Icon.js';
import type { Lane } from '../../model/lanes.js';
import { useStore } from '../../store/index.js';

export function LaneFaults({ runId, lane }: { runId: string; lane: Lane }) {
  const sendFault = useStore((s) => s.sendFault);
  const paused = lane.spans.some((s) => s.kind === 'stall' && s.byPage && s.endMs === null);
  const gone = lane.fate !== null;
  if (gone) return null;
  return (
    <span className="lane-faults">
      <button
        type="button"
        className={`fault-btn${paused ? ' on' : ''}`}
        aria-label={`${paused ? 'Resume' : 'Pause'} ${lane.workerId}`}
        title={paused ? 'SIGCONT: the process runs again' : 'SIGSTOP: the process stops where it is'}
        onClick={() => sendFault(runId, lane.workerId, paused ? 'resume' : 'pause')}
      >
        <Icon name={paused ? 'play' : 'pause'} /> {paused ? 'resume' : 'pause'}
      </button>
      <button
        type="button"
        className="fault-btn kill"
        aria-label={`Kill ${lane.workerId}`}
        title="SIGKILL: the process dies at once"
        onClick={() => sendFault(runId, lane.workerId, 'kill')}
      >
        <Icon name="skull" /> kill
      </button>
    </span>
  );
}
