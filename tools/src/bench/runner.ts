// `npm run bench`: every benchmark of the issue, one after another on this machine, then
// BENCHMARKS.md at the repository root and the targets on stdout. The build comes first
// (the root script). BENCH_ONLY=lock,overhead,first,stampede,startup,pixel,scale,site,explore runs a
// subset, and keeps the other sections of the report as they were; BENCH_OUT writes the
// report elsewhere. Uses REDIS_URL / DATABASE_URL or the
// local defaults, which must be running.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@racelab/server';
import { benchEventToPixel, benchTimelineAtScale } from './browserBenches.js';
import type { BenchResult } from './figure.js';
import { benchExploreRate } from './exploreRate.js';
import { benchFirstEventOverSocket } from './firstEventOverSocket.js';
import { benchLockPrimitive } from './lockPrimitive.js';
import { describeMachine } from './benchMachine.js';
import { keepHandWritten, mergeReport } from './mergeReport.js';
import { formatNumber, renderReport, SECTIONS, type Report } from './report.js';
import { benchRunOverhead } from './runOverhead.js';
import { benchSiteFirstScreen } from './siteFirstScreen.js';
import { benchStampedeScale } from './stampedeScale.js';
import { benchStartup } from './startup.js';
import { meets, statOf } from './stats.js';

const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const out = process.env.BENCH_OUT ?? fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url));
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());

const benches: { id: string; name: string; run(): Promise<BenchResult> }[] = [
  { id: 'lock', name: 'lock primitive', run: () => benchLockPrimitive(redisUrl, 6, 800) },
  { id: 'overhead', name: 'run overhead', run: () => benchRunOverhead(redisUrl, databaseUrl, 9) },
  { id: 'first', name: 'first worker event over the socket', run: () => benchFirstEventOverSocket(7) },
  { id: 'stampede', name: 'scale of a run', run: () => benchStampedeScale(3) },
  { id: 'startup', name: 'start-up', run: () => benchStartup(3) },
  { id: 'pixel', name: 'event to pixel', run: () => benchEventToPixel(3) },
  { id: 'scale', name: 'timeline at scale', run: () => benchTimelineAtScale() },
  { id: 'site', name: 'static site first screen', run: () => benchSiteFirstScreen(5) },
  { id: 'explore', name: 'explore rate', run: () => benchExploreRate(redisUrl, databaseUrl) },
];

const started = performance.now();
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const machine = await describeMachine(redis, pool);
redis.disconnect();
await pool.end();
console.log(`racelab bench on ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAvg}`);

const report: Report = { machine, results: [], failures: [], wallSeconds: 0 };
for (const bench of benches) {
  if (only && !only.includes(bench.id)) continue;
  const t0 = performance.now();
  process.stdout.write(`- ${bench.name} … `);
  try {
    report.results.push(await bench.run());
    console.log(`${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    report.failures.push({ bench: bench.name, error: message.replace(/\s+/g, ' ').slice(0, 600) });
    console.log(`failed: ${message.slice(0, 300)}`);
  }
}
report.wallSeconds = (performance.now() - started) / 1000;
// A subset keeps the other sections of the report as they were.
const written = renderReport(report);
const previous = existsSync(out) ? readFileSync(out, 'utf8') : undefined;
const merged = only && previous ? mergeReport(previous, written, SECTIONS) : written;
// Sections written by hand (measured by other commands) stay, whatever this run measured.
writeFileSync(out, previous ? keepHandWritten(previous, merged, SECTIONS) : merged);

console.log(`\nTargets (${out}):`);
for (const f of report.results.flatMap((r) => r.figures)) {
  if (!f.target) continue;
  const met = meets(f.samples, f.target);
  const value = formatNumber(statOf(f.samples, f.target.stat), f.unit);
  console.log(
    `  ${met === null ? 'not measured' : met ? 'met   ' : 'MISSED'}  ${f.section}: ${f.name}: ${f.target.stat} ${value} ${f.unit} (target ${f.target.op} ${f.target.value})`,
  );
}
console.log(`done in ${report.wallSeconds.toFixed(0)} s`);
process.exit(0);
