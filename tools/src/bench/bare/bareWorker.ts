// The bare baseline's worker process: duplicate-job's token-lua steps as plain code, the
// same Redis and PostgreSQL commands a racelab worker sends for them, with none of
// racelab around it (no events, no checkpoints, no observers). Two barriers ('cron',
// 'attempted') kept the race the same as racelab's: every worker tries while the holder holds.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { BareJob, FromBare, ToBare } from './bareProtocol.js';

const ENTER = `
redis.call('SADD', KEYS[1], ARGV[1])
local n = redis.call('SCARD', KEYS[1])
if n > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], n) end
return n`;
const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

const send = (m: FromBare): void => void process.send?.(m);
process.on('disconnect', () => process.exit(0));
const redis = new Redis(process.env.BARE_REDIS_URL!, { maxRetriesPerRequest: 1 });
const client = new pg.Client({ connectionString: process.env.BARE_DATABASE_URL });
await Promise.all([redis.ping(), client.connect()]);

const waiting = new Map<string, () => void>();
const barrier = (name: string): Promise<void> =>
  new Promise((resolve) => {
    waiting.set(name, resolve);
    send({ kind: 'barrier', name });
  });

async function job(j: BareJob): Promise<boolean> {
  await client.query(`set search_path to ${j.schema}`);
  await barrier('cron');
  const key = `${j.keyPrefix}lock:nightly-report:acme:${j.date}`;
  const token = `${j.workerId}:${randomUUID()}`;
  if ((await redis.set(key, token, 'PX', j.leaseMs, 'NX')) !== 'OK') {
    await redis.get(key); // who holds it, as racelab's skip reads it
    await barrier('attempted');
    return false;
  }
  await barrier('attempted');
  const holders = `${j.keyPrefix}holders`;
  await redis.eval(ENTER, 2, holders, `${j.keyPrefix}holders:max`, j.workerId);
  await new Promise((r) => setTimeout(r, j.workMs));
  await client.query('insert into emails (worker, entity, report_date) values ($1, $2, $3)', [j.workerId, 'acme', j.date]);
  await redis.srem(holders, j.workerId);
  await redis.eval(COMPARE_AND_DELETE, 1, key, token);
  return true;
}

process.on('message', (m: ToBare) => {
  if (m.kind === 'released') {
    waiting.get(m.barrier)?.();
    waiting.delete(m.barrier);
    return;
  }
  void job(m.job).then((sent) => send({ kind: 'done', sent }));
});
send({ kind: 'ready' });
