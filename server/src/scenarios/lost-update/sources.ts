// Where a read, a think and a write over someone else's write was seen in the wild: each
// source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Hermitage: Testing PostgreSQL transaction isolation levels',
    url: 'https://github.com/ept/hermitage/blob/master/postgres.md',
    summary:
      'Two transactions read a row, both write it, and one write vanishes: PostgreSQL’s default “read committed” does not prevent lost update (P4), in a few runnable statements.',
  },
  {
    title: 'Hermitage: Testing the “I” in ACID (Martin Kleppmann)',
    url: 'https://martin.kleppmann.com/2014/11/25/hermitage-testing-the-i-in-acid.html',
    summary:
      'Why the default isolation of PostgreSQL, MySQL, Oracle and SQL Server lets such races through, starting from a Bitcoin exchange that concurrent withdrawals nearly bankrupted.',
  },
  {
    title: 'Failed Alberta bitcoin bank blames technical flaw for digital currency heist (Red Deer Advocate)',
    url: 'https://www.reddeeradvocate.com/business/failed-alberta-bitcoin-bank-blames-technical-flaw-for-digital-currency-heist/',
    summary:
      'Flexcoin: thousands of simultaneous transfer requests moved coins out of an account until it was overdrawn; 896 bitcoins were taken and the company closed.',
  },
  {
    title: 'Transaction Isolation (PostgreSQL docs)',
    url: 'https://www.postgresql.org/docs/current/transaction-iso.html',
    summary:
      'In read committed an UPDATE that meets a concurrent one waits, then re-checks its WHERE on the new row: why the guarded update is safe and a read-then-write is not.',
  },
];
