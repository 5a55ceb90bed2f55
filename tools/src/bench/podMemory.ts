// What a racelab server's container holds in memory, for a Deployment's resource requests and
// limits (examples/kubernetes): the real server (node server/dist/main.js, its default warm pool
// of 4) on a free port, and every process under it summed from /proc, since a container's memory
// is its whole process tree: the server, its worker processes, a lab's own redis-servers.
// Idle once ready, then a room's typical load (four runs of four scenarios at once over two
// pages), then one run of the most workers a run may have (token-stampede, 16 servers).
// Run: npm run build && node tools/dist/bench/podMemory.js
import { readFileSync } from 'node:fs';
import { childPids, procBytes, startServer } from './serverProcess.js';
import { SocketClient } from './socketClient.js';

const MB = 2 ** 20;
const SAMPLE_MS = 100;

/** The process and every process under it. */
function tree(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(tree)];
}

/** The resident memory of a process tree right now, and how many processes it has. */
function treeRss(pid: number): { bytes: number; processes: number } {
  const pids = tree(pid);
  return { bytes: pids.reduce((sum, p) => sum + (procBytes(p, 'VmRSS') || 0), 0), processes: pids.length };
}

/**
 * The CPU time so far (user + system) of the process and of its children that have exited and
 * been waited for (the run's workers once they are gone), in ms, from /proc's clock ticks (100 a second).
 */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0) * 10;
  } catch {
    return 0;
  }
}

/** Samples the tree while `work` goes on: the peak, and the process count at that peak. */
async function peakDuring(pid: number, work: Promise<unknown>): Promise<{ peak: number; processes: number; cores: number }> {
  const started = performance.now();
  const cpuBefore = cpuMs(pid) + childPids(pid).reduce((sum, child) => sum + cpuMs(child), 0);
  let peak = 0;
  let processes = 0;
  const sampler = setInterval(() => {
    const now = treeRss(pid);
    if (now.bytes > peak) [peak, processes] = [now.bytes, now.processes];
  }, SAMPLE_MS);
  try {
    await work;
  } finally {
    clearInterval(sampler);
  }
  // The workers still alive (the warm pool refilled) count with what they have used so far.
  const cpuAfter = cpuMs(pid) + childPids(pid).reduce((sum, child) => sum + cpuMs(child), 0);
  return { peak, processes, cores: (cpuAfter - cpuBefore) / (performance.now() - started) };
}

const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;

/** Waits until every run has cleaned up: a page's slots are free again only then, not at the verdict. */
async function settled(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const readiness = (await (await fetch(`${url}/readyz`)).json()) as { slots: { taken: number } };
    if (readiness.slots.taken === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the runs never settled');
}

const server = await startServer();
const pid = server.child.pid!;
try {
  for (let i = 0; (await fetch(`${server.url}/readyz`)).status !== 200; i++) {
    if (i > 300) throw new Error('the server never became ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = treeRss(pid);
  const cpuBefore = cpuMs(pid);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idleCpu = (cpuMs(pid) - cpuBefore) / 5000;
  console.log(`idle, ready: server ${mb(procBytes(pid, 'VmRSS'))}, with its warm pool ${mb(idle.bytes)} in ${idle.processes} processes`);
  console.log(`idle CPU of the server process: ${(idleCpu * 1000).toFixed(0)} millicores`);

  const pages = [await SocketClient.connect(server.url), await SocketClient.connect(server.url)];
  for (let round = 1; round <= 2; round++) {
    const runs = Promise.all([
      pages[0]!.run('duplicate-job', 'token-lua', {}),
      pages[0]!.run('lost-update', 'select-for-update', {}),
      pages[1]!.run('redlock', 'redlock-fenced', {}),
      pages[1]!.run('token-stampede', 'single-flight-lock-cache', {}),
    ]);
    const typical = await peakDuring(pid, runs);
    console.log(
      `four runs at once (round ${round}): peak ${mb(typical.peak)} in ${typical.processes} processes, ${typical.cores.toFixed(2)} cores on average`,
    );
    await settled(server.url);
  }
  const widest = await peakDuring(pid, pages[0]!.run('token-stampede', 'single-flight-lock-cache', { servers: 16, requests: 500 }));
  console.log(
    `one run of 16 workers: peak ${mb(widest.peak)} in ${widest.processes} processes, ${widest.cores.toFixed(2)} cores on average`,
  );
  for (const page of pages) page.close();
  console.log(`server process peak RSS over its life (VmHWM): ${mb(procBytes(pid, 'VmHWM'))}`);
} finally {
  await server.stop();
}
