import pg from 'pg';

/** Resolves when PostgreSQL at `url` accepts a connection and answers `select 1`; rejects otherwise. Timeout in ms. */
// 1.5 s: a PostgreSQL that accepts and says nothing is told within 2 s; a healthy one answers in milliseconds.
export async function probePostgres(url: string, timeoutMs = 1500): Promise<void> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // A server-side disconnect after connect would otherwise be an uncaught 'error' event.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}
