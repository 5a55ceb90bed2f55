import { formatMs, ticks, timeToX, type TimeScale } from '../../model/timeScale.js';

export function TimeAxis({ scale }: { scale: TimeScale }) {
  return (
    <div className="axis" aria-hidden="true">
      {ticks(scale).map((t) => (
        <span key={t} className="tick" style={{ left: `${timeToX(t, scale)}%` }}>
          {formatMs(t)}
        </span>
      ))}
    </div>
  );
}

/** Faint vertical grid lines behind the lanes, on the axis ticks. */
export function GridLines({ scale }: { scale: TimeScale }) {
  return (
    <>
      {ticks(scale).map((t) => (
        <span key={t} className="gridline" style={{ left: `${timeToX(t, scale)}%` }} aria-hidden="true" />
      ))}
    </>
  );
}
