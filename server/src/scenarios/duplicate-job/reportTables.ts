// The run's ground truth in PostgreSQL: the reports the containers build and the e-mails
// they send, each stamped by the database itself, so no figure relies on a worker's word.
import { createStampedTable } from '../kit/stampedRows.js';
import type { RunStores } from '../types.js';

/** Who built or sent it, for which entity and night. */
const JOB_COLUMNS = ['id serial primary key', 'worker text not null', 'entity text not null', 'report_date date not null'];

/** Creates `reports` and `emails`; an e-mail must name the report it sends. */
export async function createReportTables(stores: RunStores): Promise<void> {
  await createStampedTable(stores, 'reports', JOB_COLUMNS, 'started_at');
  await createStampedTable(stores, 'emails', [...JOB_COLUMNS, 'report_id int not null references reports (id)'], 'sent_at');
}

/**
 * Most reports being built at the same moment: each one from its row's creation to its
 * first e-mail. A report never sent may still have been worked on when the run ended, so
 * it counts until then; a container killed before it started a report never counts.
 */
export async function maxConcurrentBuilds(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>(
    `with spans as (
       select r.started_at as from_at,
              coalesce((select min(e.sent_at) from emails e where e.report_id = r.id), 'infinity') as to_at
       from reports r)
     select coalesce(max((select count(*) from spans o where o.from_at <= s.from_at and o.to_at > s.from_at)), 0)::int as n
     from spans s`,
  );
  return rows[0]?.n ?? 0;
}
