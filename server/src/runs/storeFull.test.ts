// PostgreSQL out of connections, as its clients meet it: a listener on a free port that
// answers every startup with PostgreSQL's own refusal (FATAL 53300 "sorry, too many clients
// already") for as many connections as the test says, then passes them to the real
// PostgreSQL. A worker process refused so exits with STORE_FULL_EXIT_CODE, and the pool says
// StoreFull, not a failure; a step retried while the store is full succeeds once it has room.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { isStoreFull, StoreFull, whileStoreFull } from './storeFull.js';
import { WorkerPool } from './workerPool.js';

const real = new URL(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);

/** PostgreSQL's ErrorResponse for a connection past max_connections. */
function tooManyClients(): Buffer {
  const fields = ['SFATAL', 'VFATAL', 'C53300', 'Msorry, too many clients already'].map((f) => Buffer.from(`${f}\0`));
  const body = Buffer.concat([...fields, Buffer.from('\0')]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A PostgreSQL that is full for the next `refusals` connections, then relays to the real one. */
let refusals = 0;
let refused = 0;
const full = net.createServer((socket) => {
  if (refusals > 0) {
    refusals--;
    refused++;
    socket.once('data', () => socket.end(tooManyClients()));
    return;
  }
  const upstream = net.connect(Number(real.port || 5432), real.hostname);
  socket.pipe(upstream).pipe(socket);
  socket.on('error', () => upstream.destroy());
  upstream.on('error', () => socket.destroy());
});
let fullUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => full.listen(0, '127.0.0.1', resolve));
  const url = new URL(real.href);
  url.hostname = '127.0.0.1';
  url.port = String((full.address() as net.AddressInfo).port);
  fullUrl = url.href;
});
afterAll(() => new Promise<void>((resolve) => full.close(() => resolve())));

/** A connection through the listener. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: fullUrl });
  await client.connect();
  return client;
}

describe('PostgreSQL out of connections', () => {
  it("is told apart by PostgreSQL's own code", async () => {
    refusals = 1;
    const client = new pg.Client({ connectionString: fullUrl });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: '53300' });
    expect(isStoreFull(error)).toBe(true);
    expect(isStoreFull(new Error('connection refused'))).toBe(false);
  });

  it('a worker refused a connection exits as store-full, and the pool says StoreFull', async () => {
    refusals = 1;
    refused = 0;
    const pool = new WorkerPool({ redisUrl: process.env.REDIS_URL ?? DEFAULT_REDIS_URL, databaseUrl: fullUrl, size: 0 });
    try {
      const error = await pool.take(1).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreFull);
      expect(refused).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('a step asked again while PostgreSQL is full gets its connection once one is free', async () => {
    refusals = 3;
    refused = 0;
    const fulls: unknown[] = [];
    const client = await whileStoreFull(connect, new AbortController().signal, (e) => fulls.push(e));
    expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    expect(fulls).toHaveLength(3);
    expect(refused).toBe(3);
  });

  it('stops asking once the run is cancelled', async () => {
    refusals = 1000;
    const cancel = new AbortController();
    const asking = whileStoreFull(connect, cancel.signal, () => cancel.abort(new Error('cancelled')));
    await expect(asking).rejects.toThrow('cancelled');
    refusals = 0;
  });
});
