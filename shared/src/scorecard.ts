// The scorecard's file (docs/scorecard.json): every lock library against every fault, each
// cell's verdict read from its run's metrics; and its second part, the job queues, schedulers
// and poolers, each library as it is used (a scenario's variant) against the faults that apply.
// `npm run scorecard` writes it; docs/LIBRARIES.md's tables and the page's matrix read it with this one schema.
import { z } from 'zod';
import { Params } from './catalog.js';
import { FaultRule } from './faultRule.js';
import { Metrics } from './verdict.js';

/**
 * What a cell says happened, in the scorecard's words. "not staged": the fault applies, but
 * the scenario has no way yet to stage it (the cell's note says what is missing); never a run.
 */
export const CellVerdict = z.enum(['correct', 'duplicate work', 'stale write accepted', 'stuck lock', 'does not apply', 'not staged']);
export type CellVerdict = z.infer<typeof CellVerdict>;

/** A cell of either part, without the row it stands in. */
export const CellReading = z.object({
  fault: z.string(),
  verdict: CellVerdict,
  note: z.string(),
  /** What every lock of its kind gives here: not held against this one. */
  byDesign: z.boolean().optional(),
  /** The scenario, variant, parameters and fault plan of the run the verdict was read from. */
  seenAt: z.object({ scenario: z.string(), variant: z.string(), params: Params, faults: z.array(FaultRule) }).optional(),
  metrics: Metrics.optional(),
  /** The run's recording, by file name under web/public/recordings/scorecard/. */
  recording: z.string().optional(),
});
export type CellReading = z.infer<typeof CellReading>;

/** What a cell runs: a scenario's variant at a parameter set and a fault plan. */
export type CellPlan = NonNullable<CellReading['seenAt']>;

export const ScorecardCell = CellReading.extend({ lock: z.string() });
export type ScorecardCell = z.infer<typeof ScorecardCell>;

/** A fault of either part: a column, and in a line how it is run. */
export const FaultColumn = z.object({ id: z.string(), title: z.string(), mapping: z.string() });

/** A row of the second part: a library as a scenario's variant uses it. */
export const StackRow = z.object({
  /** `<scenario>-<variant>`: unique, and the end of its cells' recording names. */
  id: z.string(),
  library: z.string(),
  /** The version pinned in server/package.json; for a program, the one installed where the scorecard ran. */
  version: z.string(),
  scenario: z.string(),
  variant: z.string(),
  /** The variant's title: how the library is used. */
  usage: z.string(),
  /** Is this the correct way to use it (the variant is marked correct)? */
  correct: z.boolean(),
});
export type StackRow = z.infer<typeof StackRow>;

export const StackCell = CellReading.extend({ row: z.string() });
export type StackCell = z.infer<typeof StackCell>;

/** Job queues, schedulers and poolers under faults: the libraries that are not locks. */
export const StackScorecard = z.object({
  rows: z.array(StackRow),
  faults: z.array(FaultColumn),
  cells: z.array(StackCell),
});
export type StackScorecard = z.infer<typeof StackScorecard>;

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
  faults: z.array(FaultColumn),
  cells: z.array(ScorecardCell),
  /** The second part; absent from a check of one lock (`racelab check`), which runs only the first. */
  stacks: StackScorecard.optional(),
});
export type Scorecard = z.infer<typeof Scorecard>;

/** What a lease promises, said wherever a cell shows what every lock of its kind gives. */
export const LEASE_PROMISE = 'prevents duplicate work, does not prevent damage';

/** What every lock of its kind gives, in fair words ("as with any lease"); null for a cell held against its lock. */
export function fairWords(cell: CellReading): string | null {
  if (!cell.byDesign) return null;
  return cell.verdict === 'stale write accepted' ? `no fence: ${LEASE_PROMISE}` : 'as with any lease';
}

/** A cell's verdict in fair words: what every lock of its kind gives says so, and is never called broken. */
export function cellWords(cell: CellReading): string {
  const fair = fairWords(cell);
  return fair ? `${cell.verdict} (${fair})` : cell.verdict;
}

/** The folder of the cells' recordings, under the page's recordings folder. */
export const SCORECARD_RECORDINGS = 'scorecard';

/** A cell's recording as the page names it (`?replay=scorecard/<file>`); null for a cell with no run. */
export function cellRecordingPath(cell: CellReading): string | null {
  return cell.recording ? `${SCORECARD_RECORDINGS}/${cell.recording}` : null;
}

/** The cell of a lock under a fault; undefined when the scorecard has none. */
export function cellAt(card: Scorecard, lock: string, fault: string): ScorecardCell | undefined {
  return card.cells.find((c) => c.lock === lock && c.fault === fault);
}
