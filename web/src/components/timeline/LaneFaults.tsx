// Live faults on a worker's real process, in its lane: pause (SIGSTOP) / resume (SIGCONT)
// and kill (SIGKILL). Shown while the run is in progress; the server answers with events.
// Each lane's pair is a toolbar; all of them together are one Tab stop (useRovingMarks).
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { Icon } from '../icons/Icon.js';
import type { Lane } from '../../model/lanes.js';
import { useStore } from '../../store/index.js';

/**
 * Keeps the keyboard's place when a lane's controls go (its worker was killed, or the run
 * ended) while one of them held the focus: once they are gone, the timeline takes it back
 * and hands it on, to another lane's controls or else to a mark (useRovingMarks).
 */
function useFocusKeptOnRemoval(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = ref.current;
    const body = el?.closest<HTMLElement>('.tl-body');
    return () => {
      if (!el || !body || !el.contains(document.activeElement)) return;
      queueMicrotask(() => {
        const now = document.activeElement;
        if (body.isConnected && (!now || now === document.body || !now.isConnected)) body.focus();
      });
    };
  }, [ref]);
}

function FaultToolbar({ runId, lane }: { runId: string; lane: Lane }) {
  const sendFault = useStore((s) => s.sendFault);
  const ref = useRef<HTMLSpanElement>(null);
  useFocusKeptOnRemoval(ref);
  const paused = lane.spans.some((s) => s.kind === 'stall' && s.byPage && s.endMs === null);
  return (
    <span className="lane-faults" role="toolbar" aria-label={`${lane.workerId} process`} ref={ref}>
      <button
        type="button"
        tabIndex={-1}
        className={`fault-btn${paused ? ' on' : ''}`}
        aria-label={`${paused ? 'Resume' : 'Pause'} ${lane.workerId}`}
        title={paused ? 'SIGCONT: the process runs again' : 'SIGSTOP: the process stops where it is'}
        onClick={() => sendFault(runId, lane.workerId, paused ? 'resume' : 'pause')}
      >
        <Icon name={paused ? 'play' : 'pause'} /> {paused ? 'resume' : 'pause'}
      </button>
      <button
        type="button"
        tabIndex={-1}
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

export function LaneFaults({ runId, lane }: { runId: string; lane: Lane }) {
  return lane.fate !== null ? null : <FaultToolbar runId={runId} lane={lane} />;
}
