// The machine a bench ran on, for BENCHMARKS.md: figures from another machine (or the
// same one on a busier day) are not comparable, ratios measured side by side are.
import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { Redis } from 'ioredis';
import type pg from 'pg';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  ramGiB: number;
  freeGiB: number;
  loadAvg: string;
  node: string;
  redis: string;
  postgres: string;
  chromium: string;
}

export async function describeMachine(redis: Redis, pool: pg.Pool): Promise<Machine> {
  const info = await redis.info('server');
  const { rows } = await pool.query<{ v: string }>("select current_setting('server_version') as v");
  let chromium = 'not found';
  try {
    chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // No browser: the browser benchmarks will say so.
  }
  return {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    loadAvg: loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    node: process.version,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
    postgres: rows[0]?.v ?? 'unknown',
    chromium,
  };
}
