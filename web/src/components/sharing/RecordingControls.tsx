// Recorded runs: open a file, open one shipped with the page, replay what is on screen.
// None of it needs the server, Redis or PostgreSQL: a talk survives bad Wi-Fi.
import { useEffect, useRef, useState } from 'react';
import type { ShippedRecording } from '@racelab/shared';
import { listShipped, openRecordingText, openShipped } from '../../app/recordings.js';
import { replayShown } from '../../replay/player.js';
import { useStore } from '../../store/index.js';
import { selectCurrentRunId, selectRunInProgress } from '../../store/selectors.js';

export const OPEN_RECORDING_ID = 'open-recording';

export function RecordingControls() {
  const [shipped, setShipped] = useState<ShippedRecording[]>([]);
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const currentId = useStore(selectCurrentRunId);
  const busy = useStore(selectRunInProgress);
  const speed = useStore((s) => s.speed);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    void listShipped().then((list) => {
      if (!live) return;
      setShipped(list);
      setChoice((c) => c || list[0]?.file || '');
    });
    return () => {
      live = false;
    };
  }, []);

  const openFile = async (file: File | undefined) => {
    if (!file) return;
    setError(openRecordingText(useStore, await file.text(), null));
    if (input.current) input.current.value = '';
  };

  return (
    <fieldset className="recordings">
      <legend className="field-label">Recorded runs</legend>
      <div className="field">
        <label htmlFor={OPEN_RECORDING_ID}>Open recording</label>
        <input
          id={OPEN_RECORDING_ID}
          ref={input}
          type="file"
          accept=".json,application/json"
          onChange={(e) => void openFile(e.target.files?.[0])}
        />
      </div>
      {shipped.length > 0 && (
        <div className="field">
          <label htmlFor="shipped-recording">Shipped with racelab</label>
          <div className="row">
            <select id="shipped-recording" value={choice} onChange={(e) => setChoice(e.target.value)}>
              {shipped.map((r) => (
                <option key={r.file} value={r.file}>
                  {r.title}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => void openShipped(useStore, choice).then(setError)}>
              Open
            </button>
          </div>
        </div>
      )}
      <button
        type="button"
        disabled={!currentId || busy}
        title={`Plays the run on screen again as it happened, at the chosen speed (${speed}×), with no server (Space)`}
        onClick={() => currentId && replayShown(useStore, speed)}
      >
        Replay the run
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
