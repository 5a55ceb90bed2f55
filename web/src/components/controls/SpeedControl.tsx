// The time scale of a run: every sleep, TTL and planned stall is divided by it on the
// server, so 0.25× plays the same race four times slower, with the same verdict.
import { speedWords } from '../../model/speed.js';
import { SPEEDS } from '../../model/urlState.js';
import { useStore } from '../../store/index.js';

export { speedWords };

export function SpeedControl() {
  const speed = useStore((s) => s.speed);
  const setSpeed = useStore((s) => s.setSpeed);
  return (
    <div className="field">
      <label htmlFor="speed" className="field-label">
        Speed
      </label>
      <select id="speed" value={String(speed)} aria-describedby="speed-help" onChange={(e) => setSpeed(Number(e.target.value))}>
        {SPEEDS.map((v) => (
          <option key={v} value={String(v)}>
            {speedWords(v)}
          </option>
        ))}
      </select>
      <p className="help" id="speed-help">
        Stretches every sleep, TTL and stall of the run together (S / Shift+S): slow motion, same verdict.
      </p>
    </div>
  );
}
