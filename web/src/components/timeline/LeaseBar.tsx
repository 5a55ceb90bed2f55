// A lease as the worker lived it: the protected part (solid, the worker's colour), then the
// zombie window (hatched) while the worker still believed it held the lock.
import type { Lease } from '../../model/leases.js';
import { formatMs, type TimeScale } from '../../model/timeScale.js';
import { intervalStyle } from './geometry.js';
import { Shape } from './Shape.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

const until = (ms: number | null) => (ms === null ? 'now' : formatMs(ms));

function heldWords(l: Lease): { title: string; lines: string[] } {
  const ttl = l.ttlMs === null ? 'no expiry' : `ttl ${formatMs(l.ttlMs)}`;
  const how =
    l.end.kind === 'released'
      ? 'released'
      : l.end.kind === 'expired'
        ? 'expired'
        : l.end.kind === 'deleted'
          ? `deleted by ${l.end.by}`
          : l.end.kind === 'never-released'
            ? 'never released: the process died and the key never expires'
            : 'still held';
  const lines = [`lease ${ttl}`, `ended: ${how}`];
  if (l.fence !== undefined) lines.push(`fence ${l.fence}`);
  if (l.token !== undefined) lines.push(`token ${l.token}`);
  if (l.deleted !== null) lines.push(`release: Redis deleted ${l.deleted} key${l.deleted === 1 ? '' : 's'}`);
  return {
    title: `${l.workerId} held ${l.key} from ${formatMs(l.acquiredMs)} to ${until(l.heldEndMs)} (${how})`,
    lines,
  };
}

export const LeaseBar = shape(function LeaseBar({ lease, scale }: { lease: Lease; scale: TimeScale }) {
  const held = heldWords(lease);
  const heldTip = useTip(held);
  const z = lease.zombie;
  const zombieTip = useTip({
    title: z ? `${lease.workerId} zombie on ${lease.key} from ${formatMs(z.startMs)} to ${until(z.endMs)}` : '',
    lines: [
      lease.end.kind === 'deleted' ? `its lock was deleted by ${lease.end.by}` : 'its lease had expired',
      'the worker still believed it held the lock',
    ],
  });
  const forever = lease.end.kind === 'never-released';
  const text = `${lease.key}${lease.fence !== undefined ? ` #${lease.fence}` : ''}${lease.ttlMs === null ? ' · no expiry' : ''}`;
  return (
    <>
      <Shape
        className={`lease${forever ? ' forever' : ''}`}
        style={intervalStyle(lease.acquiredMs, lease.heldEndMs, scale, lease.expiresAtMs)}
        enter="fade"
        {...heldTip}
      >
        <span className="bar-text">{forever ? `${text} · never released` : text}</span>
      </Shape>
      {z?.pending && (
        // Opens by itself when the live edge passes the expiry; named once an event confirms it.
        <div className="zombie pending" style={intervalStyle(z.startMs, null, scale)} aria-hidden="true">
          <span className="bar-text">zombie</span>
        </div>
      )}
      {z && !z.pending && (
        <Shape className="zombie" style={intervalStyle(z.startMs, z.endMs, scale)} enter="fade" {...zombieTip}>
          <span className="bar-text">zombie</span>
        </Shape>
      )}
    </>
  );
});
