// The statement row the job writes, and the fenced ledger beside it (../kit/fencedLedger.ts):
// the grants as the server saw them in Redis and the row's own log of every write that reached
// it. What the verdict reads.
import type { Metrics } from '@racelab/shared';
import { createFencedLedger, ledgerFigures, measureFencedLedger } from '../kit/fencedLedger.js';
import type { RunStores } from '../types.js';

/** Creates the statement row and its ledger. */
export async function createStatementTables(stores: RunStores): Promise<void> {
  await stores.sql(`create table statements (
    id int primary key,
    content text not null,
    fence int not null,
    writer text not null)`);
  await stores.sql(`insert into statements values (1, 'last night''s statement', 0, 'nobody')`);
  await createFencedLedger(stores, 'statements');
}

/** The row as the timeline shows it: "worker-2 · fence 2". */
export async function observeStatement(stores: RunStores): Promise<Record<string, string | null>> {
  const { rows } = await stores.sql<{ writer: string; fence: number }>('select writer, fence from statements where id = 1');
  const row = rows[0];
  return { statement: row ? `${row.writer} · fence ${row.fence}` : null };
}

/** Reads the verdict's numbers from the row's log of writes and the grants. */
export async function measureStatement(stores: RunStores): Promise<Metrics> {
  const truth = await measureFencedLedger(stores, 'statements');
  return ledgerFigures(truth, 'maxConcurrentHolders', 'staleWritesAccepted', 'staleWritesRejected', 'finalWriter');
}
