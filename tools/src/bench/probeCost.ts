// What the probes and the scrape cost the server: the real server (node server/dist/main.js)
// on a free port, idle, asked /healthz, /readyz and /metrics `count` times one after another
// (latency) and then `count` times ten at a time (throughput), with the server process's CPU
// read from /proc around each batch. Run: npm run build && node tools/dist/bench/probeCost.js [count]
import { readFileSync } from 'node:fs';
import { startServer } from './serverProcess.js';
import { statOf } from './stats.js';

const count = Number(process.argv[2] ?? 200);
const PATHS = ['/healthz', '/readyz', '/metrics'];
const CONCURRENCY = 10;
/** Clock ticks a second of /proc's CPU times (USER_HZ). */
const TICKS = 100;

/** The process's CPU time so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

async function ask(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${Buffer.from(body).toString().slice(0, 200)}`);
  return { ms: performance.now() - started, bytes: body.byteLength };
}

const server = await startServer({ RACELAB_POOL_SIZE: '2' });
const pid = server.child.pid!;
try {
  // Ready first: the pool warm, the stores answering.
  for (let i = 0; ; i++) {
    if ((await fetch(`${server.url}/readyz`)).status === 200) break;
    if (i > 300) throw new Error('the server never became ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`${count} requests a path, sequential then ${CONCURRENCY} at a time, against an idle server (pid ${pid})`);
  console.log('path      | bytes  | p50 ms | p95 ms | max ms | server CPU ms/request | requests/s at 10 at a time');
  for (const path of PATHS) {
    const url = `${server.url}${path}`;
    for (let i = 0; i < 20; i++) await ask(url); // warm-up
    const cpuBefore = cpuMs(pid);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const answer = await ask(url);
      times.push(answer.ms);
      bytes = answer.bytes;
    }
    const cpuPer = (cpuMs(pid) - cpuBefore) / count;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < count) await ask(url);
      }),
    );
    const perSecond = count / ((performance.now() - started) / 1000);
    const [p50, p95, max] = (['median', 'p95', 'max'] as const).map((stat) => statOf(times, stat).toFixed(2).padStart(6));
    console.log(
      `${path.padEnd(9)} | ${String(bytes).padStart(6)} | ${p50} | ${p95} | ${max} | ${cpuPer.toFixed(2).padStart(21)} | ${perSecond.toFixed(0)}`,
    );
  }
} finally {
  await server.stop();
}
