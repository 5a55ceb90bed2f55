// The time scale of a run: every sleep, TTL and planned stall is divided by it on the
// server, so 0.25× plays the same race four times slower, with the same verdict.
import { speedWords } from '../../model/speed.js';
import { SPEEDS } from '../../model/urlState.js';
import { useStore } from '../../store/index.js';
import { SelectField } from './SelectField.js';

export { speedWords };

export function SpeedControl() {
  const speed = useStore((s) => s.speed);
  const setSpeed = useStore((s) => s.setSpeed);
  return (
    <SelectField
      id="speed"
      label="Speed"
      value={String(speed)}
      options={SPEEDS.map((v) => ({ value: String(v), text: speedWords(v) }))}
      onChange={(v) => setSpeed(Number(v))}
      help="Stretches every sleep, TTL and stall of the run together (S / Shift+S): slow motion, same verdict."
    />
  );
}
