// What one worker lane draws for a drawn window and width: the shapes inside the window,
// thinned into groups and clusters past their budgets, marks stacked into rows, and the
// lane's height. Shared by the page's timeline and the SVG export.
import type { Lane, Mark, Span } from './lanes.js';
import type { Lease } from './leases.js';
import { markExtent, stackMarks, type PlacedMark } from './layout.js';
import { anyOpen, clusterInstants, MARK_BUDGET, cullInstants, thinIntervals, type Thinned } from './lod.js';
import { formatMs, makeScale, timeToX, type TimeScale } from './timeScale.js';
import type { TruthSegment } from './truth.js';
import type { TimeWindow } from './viewport.js';

/** Vertical distance between rows of major marks. */
export const MARK_ROW_PX = 48;
/** A lane's height with at most two rows of marks. */
export const LANE_BASE_PX = 98;
/** Marks closer than this, in px, join a cluster once a lane has too many to draw. */
export const CLUSTER_PX = 30;

export interface LeaseItem {
  id: string;
  startMs: number;
  endMs: number | null;
  lease: Lease;
}

export interface MarkCluster {
  id: string;
  /** Position of its first mark, in percent of the drawn window. */
  x: number;
  count: number;
  startMs: number;
  endMs: number;
  /** Ids of its first and last marks (mark-<seq>): it stands for the lane's marks between them. */
  firstId: string;
  lastId: string;
  label: string;
  details: string[];
}

export interface LaneScene {
  scale: TimeScale;
  stalls: Thinned<Span>[];
  leases: Thinned<LeaseItem>[];
  spans: Thinned<Span>[];
  truth: Thinned<TruthSegment>[];
  majors: PlacedMark[];
  minors: PlacedMark[];
  clusters: MarkCluster[];
  /** Rows of major marks (and clusters) the lane holds. */
  rows: number;
  heightPx: number;
  /** Some shape reaches the live edge (and moves with it). */
  open: boolean;
}

export function laneHeight(rows: number): number {
  return LANE_BASE_PX + MARK_ROW_PX * Math.max(0, rows - 2);
}

function leaseItem(l: Lease): LeaseItem {
  return { id: l.id, startMs: l.acquiredMs, endMs: l.zombie ? l.zombie.endMs : l.heldEndMs, lease: l };
}

/**
 * The cluster last made from each first mark. A live lane is drawn again every frame, and
 * all its clusters but the last come out the same: the same object again, not new words
 * counted over the same marks (and the glyph sees props it need not compare).
 */
const madeFrom = new WeakMap<Mark, MarkCluster>();

function clusterOf(workerId: string, marks: Mark[], scale: TimeScale): MarkCluster {
  const first = marks[0]!;
  const last = marks[marks.length - 1]!;
  const x = timeToX(first.atMs, scale);
  // A lane's marks are never taken away as its log grows: the same first, last and count are the same marks.
  const made = madeFrom.get(first);
  if (made && made.x === x && made.count === marks.length && made.lastId === last.id) return made;
  const counts = new Map<string, number>();
  for (const m of marks) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  const cluster: MarkCluster = {
    id: `cluster-${first.id}`,
    x,
    count: marks.length,
    startMs: first.atMs,
    endMs: last.atMs,
    firstId: first.id,
    lastId: last.id,
    label: `${marks.length} events of ${workerId} from ${formatMs(first.atMs)} to ${formatMs(last.atMs)}`,
    details: [...[...counts].map(([kind, n]) => `${n} × ${kind}`), 'zoom in to see each one'],
  };
  madeFrom.set(first, cluster);
  return cluster;
}

export interface SceneOptions {
  /** While the run is in progress, where its facts reach (its marks' rate decides their level of detail); null once it has finished. */
  reachMs?: number | null;
  /** Where the drawn window will reach as the run goes on, when it is the run's whole domain (see nextHorizon); null: it stays. */
  growsToMs?: number | null;
  /** Width of a caption's character in px (larger on stage): where captions collide. */
  captionCharPx?: number;
}

/** The scene of a lane in `drawn` (the committed window), `pxWidth` pixels wide. */
export function laneScene(
  lane: Lane,
  truth: TruthSegment[],
  drawn: TimeWindow,
  pxWidth: number,
  { reachMs = null, growsToMs = null, captionCharPx }: SceneOptions = {},
): LaneScene {
  const scale = makeScale(drawn.startMs, drawn.endMs);
  const slackMs = ((CLUSTER_PX / Math.max(1, pxWidth)) * (drawn.endMs - drawn.startMs)) / 2;
  const marks = cullInstants(lane.marks, drawn, slackMs);
  const clustered = clusterInstants(marks, drawn, pxWidth, CLUSTER_PX, MARK_BUDGET, reachMs, growsToMs);
  let majors: PlacedMark[] = [];
  let minors: PlacedMark[] = [];
  const clusters: MarkCluster[] = [];
  if (clustered) {
    for (const c of clustered) {
      if (c.items.length > 1) clusters.push(clusterOf(lane.workerId, c.items, scale));
      else (c.items[0]!.major ? majors : minors).push({ mark: c.items[0]!, x: timeToX(c.items[0]!.atMs, scale), row: 0, flip: false });
    }
  } else {
    const extent = markExtent(pxWidth, captionCharPx);
    majors = stackMarks(
      marks.filter((m) => m.major),
      scale,
      extent,
      4,
    );
    minors = stackMarks(
      marks.filter((m) => !m.major),
      scale,
      extent,
      1,
    );
  }
  const rows = majors.reduce((n, p) => Math.max(n, p.row + 1), clusters.length > 0 ? 1 : 0);
  const band = (s: Span) => s.kind === 'stall' || s.kind === 'blocked' || s.kind === 'cut' || s.kind === 'slow';
  const stalls = thinIntervals(lane.spans.filter(band), drawn, pxWidth);
  const leases = thinIntervals(lane.leases.map(leaseItem), drawn, pxWidth);
  const spans = thinIntervals(
    lane.spans.filter((s) => !band(s)),
    drawn,
    pxWidth,
  );
  const shownTruth = thinIntervals(truth, drawn, pxWidth);
  return {
    scale,
    stalls,
    leases,
    spans,
    truth: shownTruth,
    majors,
    minors,
    clusters,
    rows,
    heightPx: laneHeight(rows),
    open: anyOpen(stalls) || anyOpen(leases) || anyOpen(spans) || anyOpen(shownTruth),
  };
}

/** The words of a group of shapes drawn as one. */
export function groupLabel(what: string, count: number, startMs: number, endMs: number, owner: string): string {
  return `${count} ${what} of ${owner} from ${formatMs(startMs)} to ${formatMs(endMs)}`;
}
