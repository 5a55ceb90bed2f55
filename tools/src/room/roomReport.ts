// The figures of a simulated room, from its attempts: verdicts as expected, waits in line
// (p50, p95, max), "busy" answers, runs by server; and the report in words.
import type { Attempt } from './attendee.js';
import type { ConnectionPeaks } from './connectionSampler.js';
import type { Leftovers } from './leftovers.js';
import type { MachineUsage, ServerUsage } from './processSampler.js';

export interface RoomFigures {
  attendees: number;
  runs: number;
  /** Runs that ended with the verdict the catalogue expects. */
  asExpected: number;
  /** The others, one line each. */
  unexpected: string[];
  waitMs: { p50: number; p95: number; max: number };
  /** Starts that waited in line, and the furthest back any stood. */
  queued: number;
  worstPosition: number;
  /** "busy" answers (each tried again). */
  rejected: number;
  byServer: Record<string, number>;
  seconds: number;
}

export interface RoomReport extends RoomFigures {
  usage: { servers: ServerUsage[]; machine: MachineUsage } | null;
  /** PostgreSQL's connections while the room ran; absent where they were not sampled. */
  connections?: ConnectionPeaks;
  leftovers: Leftovers;
}

/** The q-quantile (0..1) of `values` by the nearest rank; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function figures(attendees: number, attempts: readonly Attempt[], seconds: number): RoomFigures {
  const waits = attempts.filter((a) => a.runId !== null).map((a) => a.waitMs);
  const unexpected = attempts
    .filter((a) => a.verdict !== a.expected)
    .map((a) => `${a.scenario}/${a.variant} on ${a.server}: ${a.verdict}, expected ${a.expected}${a.error ? ` (${a.error})` : ''}`);
  const byServer: Record<string, number> = {};
  for (const a of attempts) if (a.runId !== null) byServer[a.server] = (byServer[a.server] ?? 0) + 1;
  return {
    attendees,
    runs: attempts.length,
    asExpected: attempts.length - unexpected.length,
    unexpected,
    waitMs: { p50: Math.round(quantile(waits, 0.5)), p95: Math.round(quantile(waits, 0.95)), max: Math.round(Math.max(0, ...waits)) },
    queued: attempts.filter((a) => a.queued).length,
    worstPosition: Math.max(0, ...attempts.map((a) => a.worstPosition)),
    rejected: attempts.reduce((n, a) => n + a.rejected, 0),
    byServer,
    seconds: Math.round(seconds),
  };
}

/** The report in lines, for a terminal and for BENCHMARKS.md. */
export function reportLines(report: RoomReport): string[] {
  const s = (n: number) => (n / 1000).toFixed(1);
  const lines = [
    `attendees: ${report.attendees}, runs: ${report.runs} in ${report.seconds} s`,
    `verdicts as expected: ${report.asExpected} of ${report.runs}`,
    ...report.unexpected.map((line) => `  not as expected: ${line}`),
    `wait for a slot (start to run-accepted): p50 ${s(report.waitMs.p50)} s, p95 ${s(report.waitMs.p95)} s, max ${s(report.waitMs.max)} s; ${report.queued} starts waited in line, the furthest back ${report.worstPosition}`,
    `rejected starts ("busy"): ${report.rejected}`,
    `runs by server: ${Object.entries(report.byServer)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')}`,
  ];
  if (report.usage) {
    for (const u of report.usage.servers) {
      lines.push(
        `${u.name} (pid ${u.pid}): peak RSS ${u.peakRssMb} MB (${u.peakRssWithWorkersMb} MB with its workers, at most ${u.peakWorkers} of them); CPU ${u.meanCpuPercent}% of a core alone, ${u.meanCpuWithWorkersPercent}% with its workers (busiest second ${u.peakCpuWithWorkersPercent}%)`,
      );
    }
    const m = report.usage.machine;
    lines.push(
      `machine (${m.cores} cores, every process on it): CPU ${m.meanPercent}% on average, ${m.peakPercent}% in the busiest second`,
    );
  } else lines.push('server processes: not sampled (the workshop does not run on this machine)');
  const c = report.connections;
  if (c && c.samples > 0) {
    lines.push(
      `PostgreSQL connections (max_connections ${c.maxConnections}): at most ${c.peakClients} clients at once, at most ${c.peakOutsiders} of them not racelab's; the servers reserved at most ${c.peakReserved} (${c.samples} samples, one a second)`,
    );
  }
  const left = report.leftovers;
  lines.push(`left in the stores: ${left.keys} Redis keys, ${left.aclUsers} ACL users, ${left.schemas} schemas, ${left.roles} roles`);
  return lines;
}
