// The scorecard's file (docs/scorecard.json): every lock library against every fault, each
// cell's verdict read from its run's metrics. `npm run scorecard` writes it; docs/LIBRARIES.md's
// table and the page's matrix read it with this one schema.
import { z } from 'zod';
import { Params } from './catalog.js';
import { FaultRule } from './faultRule.js';
import { Metrics } from './verdict.js';

/** What a cell says happened, in the scorecard's words. */
export const CellVerdict = z.enum(['correct', 'duplicate work', 'stale write accepted', 'stuck lock', 'does not apply']);
export type CellVerdict = z.infer<typeof CellVerdict>;

export const ScorecardCell = z.object({
  fault: z.string(),
  lock: z.string(),
  verdict: CellVerdict,
  note: z.string(),
  /** What every lock of its kind gives here: not held against this one. */
  byDesign: z.boolean().optional(),
  /** The parameters and fault plan of the run the verdict was read from. */
  seenAt: z.object({ scenario: z.string(), variant: z.string(), params: Params, faults: z.array(FaultRule) }).optional(),
  metrics: Metrics.optional(),
  /** The run's recording, by file name under web/public/recordings/scorecard/. */
  recording: z.string().optional(),
});
export type ScorecardCell = z.infer<typeof ScorecardCell>;

export const Scorecard = z.object({
  locks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      version: z.string(),
      renews: z.boolean(),
      /** Does a grant come with a fencing token? */
      fences: z.boolean().optional(),
      /** Does the lock take a majority of independent nodes (Redlock)? The Redlock faults apply to it only then. */
      spansNodes: z.boolean().optional(),
    }),
  ),
  faults: z.array(z.object({ id: z.string(), title: z.string(), mapping: z.string() })),
  cells: z.array(ScorecardCell),
});
export type Scorecard = z.infer<typeof Scorecard>;

/** What a lease promises, said wherever a cell shows what every lock of its kind gives. */
export const LEASE_PROMISE = 'prevents duplicate work, does not prevent damage';

/** What every lock of its kind gives, in fair words ("as with any lease"); null for a cell held against its lock. */
export function fairWords(cell: ScorecardCell): string | null {
  if (!cell.byDesign) return null;
  return cell.verdict === 'stale write accepted' ? `no fence: ${LEASE_PROMISE}` : 'as with any lease';
}

/** A cell's verdict in fair words: what every lock of its kind gives says so, and is never called broken. */
export function cellWords(cell: ScorecardCell): string {
  const fair = fairWords(cell);
  return fair ? `${cell.verdict} (${fair})` : cell.verdict;
}

/** The folder of the cells' recordings, under the page's recordings folder. */
export const SCORECARD_RECORDINGS = 'scorecard';

/** A cell's recording as the page names it (`?replay=scorecard/<file>`); null for a cell with no run. */
export function cellRecordingPath(cell: ScorecardCell): string | null {
  return cell.recording ? `${SCORECARD_RECORDINGS}/${cell.recording}` : null;
}

/** The cell of a lock under a fault; undefined when the scorecard has none. */
export function cellAt(card: Scorecard, lock: string, fault: string): ScorecardCell | undefined {
  return card.cells.find((c) => c.lock === lock && c.fault === fault);
}
