// The machine a bench ran on, for BENCHMARKS.md: figures from another machine (or the
// same one on a busier day) are not comparable, ratios measured side by side are. Two
// yardsticks say how fast this one was when the bench started, so that a figure that moved
// between two reports can be told from a machine that did: starting a Node process (what
// every worker of a run pays) and a fixed piece of JavaScript.
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
  /** `node -e 0`, spawned and waited for: median of 9, in ms. */
  nodeStartMs: number;
  /** A fixed piece of JavaScript (JSON of 20,000 small objects, written and read back): median of 9, in ms. */
  jsWorkMs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The median time of `times` calls of `fn`, in ms. */
function timed(times: number, fn: () => void): number {
  return median(
    Array.from({ length: times }, () => {
      const started = performance.now();
      fn();
      return performance.now() - started;
    }),
  );
}

const SAMPLE = Array.from({ length: 20_000 }, (_, i) => ({
  seq: i,
  type: 'note',
  workerId: `worker-${i % 4}`,
  atMs: i * 0.5,
  text: `#${i}`,
}));

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
    nodeStartMs: timed(9, () => execFileSync(process.execPath, ['-e', '0'], { stdio: 'ignore' })),
    jsWorkMs: timed(9, () => void JSON.parse(JSON.stringify(SAMPLE))),
  };
}
