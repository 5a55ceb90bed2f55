// The static site's first screen: builds the site (npm run site's builder, into a temporary
// folder), runs e2e/bench/siteFirstScreen.bench.ts (fresh browser contexts on a throttled
// connection, the site served gzipped under a sub-path) and turns its loads into figures:
// JavaScript on the wire for the first screen, all bytes, and the time to the first drawn
// recording, each held to the budget set here.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { playwright } from './browserBenches.js';
import type { BenchResult, Figure } from './figure.js';
import { statOf } from './stats.js';

const BUILDER = fileURLToPath(new URL('../site/buildSite.js', import.meta.url));
const KB = 1024;
const SECTION = 'Static site';
/**
 * The budgets. JavaScript: what the page needs to draw a run (React, the timeline, the verdict,
 * the store and the schemas that check every file it reads), gzipped, with room to grow by a
 * sixth and no more. Time: a reader who follows a link on a slow phone connection sees the race
 * drawn within 4 s.
 */
const BUDGET = { jsKB: 200, firstDrawMs: 4000 };

interface SiteLoad {
  firstDrawMs: number;
  firstPaintMs: number | null;
  lastByteMs: number;
  responses: { url: string; kind: string; bytes: number }[];
}
interface SiteResult {
  downKbps: number;
  upKbps: number;
  rttMs: number;
  loads: SiteLoad[];
}

const bytesOf = (load: SiteLoad, kind?: string) => load.responses.filter((r) => !kind || r.kind === kind).reduce((n, r) => n + r.bytes, 0);
const kb = (bytes: number) => (bytes / KB).toFixed(1);

export async function benchSiteFirstScreen(reps = 5): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'racelab-bench-site-'));
  try {
    const site = join(dir, 'site');
    await promisify(execFile)(process.execPath, [BUILDER, '--out', site]);
    await playwright(
      'siteFirstScreen',
      { BENCH_SITE_DIR: site, BENCH_RESULTS_DIR: dir, BENCH_SITE_REPS: String(reps) },
      [],
      'playwright.bench.config.ts',
    );
    const r = JSON.parse(readFileSync(join(dir, 'siteFirstScreen.json'), 'utf8')) as SiteResult;
    const net = `${r.downKbps / 1000} Mbps down, ${r.upKbps} kbps up, ${r.rttMs} ms latency`;
    const figures: Figure[] = [
      {
        section: SECTION,
        name: 'JavaScript transferred for the first screen (gzipped, headers included)',
        unit: 'KB',
        samples: r.loads.map((l) => bytesOf(l, 'js') / KB),
        sampleOf: 'load',
        target: { stat: 'max', op: '<=', value: BUDGET.jsKB },
      },
      {
        section: SECTION,
        name: 'everything transferred for the first screen',
        unit: 'KB',
        samples: r.loads.map((l) => bytesOf(l) / KB),
        sampleOf: 'load',
      },
      {
        section: SECTION,
        name: `navigation → first frame drawing the first recording, on ${net}`,
        unit: 'ms',
        samples: r.loads.map((l) => l.firstDrawMs),
        sampleOf: 'load',
        target: { stat: 'median', op: '<=', value: BUDGET.firstDrawMs },
      },
      {
        section: SECTION,
        name: "of which after the first screen's last byte had arrived (the page's own work: parse, run, render, draw)",
        unit: 'ms',
        samples: r.loads.map((l) => l.firstDrawMs - l.lastByteMs),
        sampleOf: 'load',
      },
      {
        section: SECTION,
        name: 'navigation → first contentful paint, same connection',
        unit: 'ms',
        samples: r.loads.flatMap((l) => (l.firstPaintMs === null ? [] : [l.firstPaintMs])),
        sampleOf: 'load',
      },
    ];
    const first = r.loads[0];
    const files = first
      ? first.responses.map((x) => `${new URL(x.url).pathname.replace(/^\/racelab\//, '') || 'index.html'} ${kb(x.bytes)} KB`)
      : [];
    const notes = [
      `Method (e2e/bench/siteFirstScreen.bench.ts): \`npm run site\`'s folder, served under /racelab/ by a plain static server that gzips text as static hosts do; ${r.loads.length} loads, each in a fresh browser context with the cache off, at 1366×768, the connection held by CDP's Network.emulateNetworkConditions to ${net} ("fast 3G"). ` +
        "The first recording is drawn when an animation frame finds one of its marks in the Timeline (a probe in the page before its script); bytes are those of the responses finished by then, as CDP's Network.loadingFinished counts them (headers and the encoded body). " +
        `Budgets: JavaScript ≤ ${BUDGET.jsKB} KB on the wire, the first recording drawn ≤ ${BUDGET.firstDrawMs / 1000} s (median). Recordings are fetched when their scenario is opened: the first screen fetches one.`,
      `What the first screen fetched (first load, bytes on the wire): ${files.join(', ')}. By kind, medians: ${[
        'html',
        'js',
        'css',
        'catalog',
        'recording',
      ]
        .map(
          (k) =>
            `${k} ${kb(
              statOf(
                r.loads.map((l) => bytesOf(l, k)),
                'median',
              ),
            )} KB`,
        )
        .join(', ')}.`,
    ];
    return { figures, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
