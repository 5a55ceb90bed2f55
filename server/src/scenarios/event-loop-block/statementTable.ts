// The statement row the job writes, and the fenced ledger beside it (../kit/fencedLedger.ts):
// the grants as the server saw them in Redis and the row's own log of every write that reached
// it. What the verdict reads, and the figures it gives.
import type { MetricSpec, Metrics } from '@racelab/shared';
import {
  createFencedRow,
  ledgerFigures,
  ledgerMetrics,
  measureFencedLedger,
  OBSERVED_GRANTS,
  observeFencedRow,
} from '../kit/fencedLedger.js';
import type { RunStores } from '../types.js';

const metrics = ledgerMetrics('statements', OBSERVED_GRANTS);

/** The figures measureStatement gives, as the page lists them. */
export const STATEMENT_METRICS: MetricSpec[] = [
  { ...metrics.maxConcurrentHolders, label: 'Workers that believed they held the lease at once' },
  metrics.staleWritesAccepted,
  metrics.staleWritesRejected,
  metrics.finalWriter,
];

/** Creates the statement row and its ledger. */
export async function createStatementTables(stores: RunStores): Promise<void> {
  await createFencedRow(stores, 'statements', "last night's statement");
}

/** The row as the timeline shows it: "worker-2 · fence 2". */
export async function observeStatement(stores: RunStores): Promise<Record<string, string | null>> {
  return { statement: await observeFencedRow(stores, 'statements') };
}

/** Reads the verdict's numbers from the row's log of writes and the grants. */
export async function measureStatement(stores: RunStores): Promise<Metrics> {
  const truth = await measureFencedLedger(stores, 'statements');
  return ledgerFigures(truth, 'maxConcurrentHolders', 'staleWritesAccepted', 'staleWritesRejected', 'finalWriter');
}
