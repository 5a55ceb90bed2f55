// Samples, every `everyMs`, each workshop server's resident memory and CPU time from /proc:
// the server process alone, and with its worker processes (its descendants). Reports each
// one's peak resident memory, its CPU over the whole sampling as a share of one core, and its
// busiest second; and the whole machine's CPU (every process, other users' too) from /proc/stat.
import { readFileSync } from 'node:fs';
import { parentOf, pids, type ServerProcess } from './workshopProcesses.js';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;
const PAGE_BYTES = 4096;

interface Sample {
  atMs: number;
  /** CPU ticks and resident bytes: the server alone, and with its workers. */
  own: { ticks: number; rss: number };
  all: { ticks: number; rss: number; processes: number };
}

export interface ServerUsage {
  name: string;
  pid: number;
  /** Peak resident memory of the server process, and of it with its workers, in MB. */
  peakRssMb: number;
  peakRssWithWorkersMb: number;
  /** CPU over the whole sampling, in % of one core: the server alone, with its workers. */
  meanCpuPercent: number;
  meanCpuWithWorkersPercent: number;
  /** The busiest second, with its workers, in % of one core. */
  peakCpuWithWorkersPercent: number;
  peakWorkers: number;
}

export interface MachineUsage {
  cores: number;
  /** Mean and busiest-second CPU of the whole machine, in % of all its cores. */
  meanPercent: number;
  peakPercent: number;
}

export class ProcessSampler {
  private readonly samples = new Map<string, Sample[]>();
  private readonly machine: Array<{ atMs: number; busy: number; total: number }> = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly servers: ServerProcess[],
    everyMs = 1000,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    const atMs = performance.now();
    const parents = new Map(pids().map((pid) => [pid, parentOf(pid)]));
    for (const server of this.servers) {
      const family = descendants(server.pid, parents);
      const own = usage(server.pid);
      // With the CPU of its workers that have ended (reaped: counted in the parent's cutime/cstime).
      const all = family
        .map((pid) => usage(pid, true))
        .reduce((a, b) => ({ ticks: a.ticks + b.ticks, rss: a.rss + b.rss }), usage(server.pid, true));
      const list = this.samples.get(server.name) ?? [];
      list.push({ atMs, own, all: { ...all, processes: family.length } });
      this.samples.set(server.name, list);
    }
    this.machine.push({ atMs, ...machineTicks() });
  }

  /** Stops sampling and reports. */
  stop(): { servers: ServerUsage[]; machine: MachineUsage } {
    clearInterval(this.timer);
    this.sample();
    const servers = this.servers.map((server) => summarise(server, this.samples.get(server.name) ?? []));
    return { servers, machine: machineSummary(this.machine) };
  }
}

function summarise(server: ServerProcess, samples: Sample[]): ServerUsage {
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const seconds = Math.max(0.001, (last.atMs - first.atMs) / 1000);
  const percent = (ticks: number, s: number) => Math.round((ticks / TICKS_PER_S / s) * 1000) / 10;
  let peak = 0;
  for (let i = 1; i < samples.length; i++) {
    const s = (samples[i]!.atMs - samples[i - 1]!.atMs) / 1000;
    peak = Math.max(peak, percent(samples[i]!.all.ticks - samples[i - 1]!.all.ticks, s));
  }
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  return {
    name: server.name,
    pid: server.pid,
    peakRssMb: mb(Math.max(...samples.map((s) => s.own.rss))),
    peakRssWithWorkersMb: mb(Math.max(...samples.map((s) => s.all.rss))),
    meanCpuPercent: percent(last.own.ticks - first.own.ticks, seconds),
    meanCpuWithWorkersPercent: percent(last.all.ticks - first.all.ticks, seconds),
    peakCpuWithWorkersPercent: peak,
    peakWorkers: Math.max(...samples.map((s) => s.all.processes)),
  };
}

function machineSummary(samples: Array<{ busy: number; total: number }>): MachineUsage {
  const share = (a: { busy: number; total: number }, b: { busy: number; total: number }) =>
    Math.round(((b.busy - a.busy) / Math.max(1, b.total - a.total)) * 100);
  let peak = 0;
  for (let i = 1; i < samples.length; i++) peak = Math.max(peak, share(samples[i - 1]!, samples[i]!));
  const cores = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((l) => /^cpu\d/.test(l)).length;
  return { cores, meanPercent: share(samples[0]!, samples.at(-1)!), peakPercent: peak };
}

/** Every process below `pid`. */
function descendants(pid: number, parents: Map<number, number>): number[] {
  const out: number[] = [];
  const frontier = [pid];
  while (frontier.length > 0) {
    const at = frontier.pop()!;
    for (const [child, parent] of parents) {
      if (parent !== at) continue;
      out.push(child);
      frontier.push(child);
    }
  }
  return out;
}

/** A process's CPU ticks (user + system; with `reaped`, its ended children's too) and resident bytes; zero once it is gone. */
function usage(pid: number, reaped = false): { ticks: number; rss: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state is field 3; utime 14, stime 15, cutime 16, cstime 17, rss 24.
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const ticks = f[11]! + f[12]! + (reaped ? f[13]! + f[14]! : 0);
    return { ticks, rss: f[21]! * PAGE_BYTES };
  } catch {
    return { ticks: 0, rss: 0 };
  }
}

/** The machine's busy and total CPU ticks so far. */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [, ...values] = line.trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th.
  return { busy: total - ticks[3]! - ticks[4]!, total };
}
