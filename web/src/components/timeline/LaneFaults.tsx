// Live faults on a worker's real process, in its lane: pause (SIGSTOP) / resume (SIGCONT)
// and kill (SIGKILL); for a worker that runs as a lab host of its own, partition / heal (its
// link set down in the kernel). Shown while the run is in progress; the server answers with events.
// Each lane's pair is a toolbar; all of them together are one Tab stop (useRovingMarks).
import { memo, useLayoutEffect, useRef, type RefObject } from 'react';
import { Icon } from '../icons/Icon.js';
import type { Lane } from '../../model/lanes.js';
import { useStore } from '../../store/index.js';
import { isLinkCut } from '../../model/labNodeFaults.js';

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

/** The run's run-started says which workers are lab hosts; their last partition event says whether the link is cut now. */
function useLink(runId: string, workerId: string): 'none' | 'up' | 'cut' {
  return useStore((s) => {
    const events = s.runs[runId]?.events ?? [];
    const started = events.find((e) => e.type === 'run-started');
    if (!started || started.type !== 'run-started' || !started.hosts.includes(workerId)) return 'none';
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === 'fault-staged' && e.workerId === workerId && (e.fault === 'partition' || e.fault === 'partition-healed')) {
        return isLinkCut(e) ? 'cut' : 'up';
      }
    }
    return 'up';
  });
}

/** What the toolbar shows, as plain values: a lane is a new object with every batch of events. */
interface ToolbarProps {
  runId: string;
  workerId: string;
  /** Stopped from the page (SIGSTOP), not yet resumed. */
  paused: boolean;
}

const FaultToolbar = memo(function FaultToolbar({ runId, workerId, paused }: ToolbarProps) {
  const sendFault = useStore((s) => s.sendFault);
  const link = useLink(runId, workerId);
  const ref = useRef<HTMLSpanElement>(null);
  useFocusKeptOnRemoval(ref);
  return (
    <span className="lane-faults" role="toolbar" aria-label={`${workerId} process`} ref={ref}>
      <button
        type="button"
        tabIndex={-1}
        className={`fault-btn${paused ? ' on' : ''}`}
        aria-label={`${paused ? 'Resume' : 'Pause'} ${workerId}`}
        title={paused ? 'SIGCONT: the process runs again' : 'SIGSTOP: the process stops where it is'}
        onClick={() => sendFault(runId, workerId, paused ? 'resume' : 'pause')}
      >
        <Icon name={paused ? 'play' : 'pause'} /> {paused ? 'resume' : 'pause'}
      </button>
      <button
        type="button"
        tabIndex={-1}
        className="fault-btn kill"
        aria-label={`Kill ${workerId}`}
        title="SIGKILL: the process dies at once"
        onClick={() => sendFault(runId, workerId, 'kill')}
      >
        <Icon name="skull" /> kill
      </button>
      {link !== 'none' && (
        <button
          type="button"
          tabIndex={-1}
          className={`fault-btn${link === 'cut' ? ' on' : ''}`}
          aria-label={`${link === 'cut' ? 'Heal' : 'Partition'} ${workerId}`}
          title={link === 'cut' ? 'Link up: its connections flow again' : 'Link down in the kernel: every connection of this worker hangs'}
          onClick={() => sendFault(runId, workerId, link === 'cut' ? 'heal' : 'partition')}
        >
          {link === 'cut' ? 'heal' : 'partition'}
        </button>
      )}
    </span>
  );
});

export function LaneFaults({ runId, lane }: { runId: string; lane: Lane }) {
  if (lane.fate !== null) return null;
  const paused = lane.spans.some((s) => s.kind === 'stall' && s.byPage && s.endMs === null);
  return <FaultToolbar runId={runId} workerId={lane.workerId} paused={paused} />;
}
