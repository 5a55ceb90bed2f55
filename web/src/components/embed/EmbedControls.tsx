// The embed's only controls: step back, play or pause, step forward, and where the playhead
// is. They do what the host page's commands do (../../embed/embedCommands.ts). The time
// readout follows the cursor through a store subscription, not a render per frame.
import { useEffect, useRef } from 'react';
import type { EmbedCommand } from '@racelab/shared';
import { performCommand } from '../../embed/embedCommands.js';
import { playheadOf } from '../../embed/embedReports.js';
import { formatMs } from '../../model/timeScale.js';
import { useStore } from '../../store/index.js';

const run = (command: EmbedCommand) =>
  void performCommand(useStore, command).then((error) => {
    if (error) useStore.getState().setNotice(error);
  });

function TimeReadout() {
  const text = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const show = () => {
      const at = playheadOf(useStore.getState());
      if (text.current) text.current.textContent = at ? `${formatMs(at.ms)} / ${formatMs(at.endMs)}` : '';
    };
    show();
    return useStore.subscribe(show);
  }, []);
  return <span className="embed-time" ref={text} aria-label="Playhead" />;
}

export function EmbedControls() {
  const playing = useStore((s) => playheadOf(s)?.playing ?? false);
  const hasRun = useStore((s) => s.shown.length > 0);
  const canRun = useStore((s) => s.transport !== null && s.variantId !== null);
  return (
    <div className="embed-controls" role="toolbar" aria-label="Playback">
      <button type="button" disabled={!hasRun} onClick={() => run({ racelab: 1, type: 'step', by: -1 })} title="Previous moment">
        ◀ Step
      </button>
      {playing ? (
        <button type="button" className="embed-play" onClick={() => run({ racelab: 1, type: 'pause' })}>
          Pause
        </button>
      ) : (
        <button type="button" className="embed-play" disabled={!hasRun && !canRun} onClick={() => run({ racelab: 1, type: 'play' })}>
          Play
        </button>
      )}
      <button type="button" disabled={!hasRun} onClick={() => run({ racelab: 1, type: 'step', by: 1 })} title="Next moment">
        Step ▶
      </button>
      <TimeReadout />
    </div>
  );
}
