// Scale of a run: token-stampede's correct variant (single-flight-lock-cache) with 5,000
// requests over 16 server processes, through the real server (node server/dist/main.js,
// its default warm pool of 4, so 12 processes are forked for the run) and its WebSocket.
// The verdict must still say 1 refresh call; time from start-run to the verdict; the
// server process's peak RSS (VmHWM, a fresh server per repetition) and, sampled every
// 50 ms, the most its worker processes held together.
import type { BenchResult, Figure, Target } from './figure.js';
import { childPids, procBytes, startServer } from './serverProcess.js';
import { SocketClient } from './socketClient.js';

const SECTION = 'Scale of a run';
const MB = 2 ** 20;

/** One of this section's figures: one sample a run. */
function figure(name: string, unit: string, samples: number[], target?: Target): Figure {
  return { section: SECTION, name, unit, samples, sampleOf: 'run', target };
}

export async function benchStampedeScale(reps = 3): Promise<BenchResult> {
  const verdicts: number[] = [];
  const refreshes: number[] = [];
  const okRequests: number[] = [];
  const serverPeaks: number[] = [];
  const workerPeaks: number[] = [];
  const events: number[] = [];
  const phases: string[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const server = await startServer();
    const pid = server.child.pid!;
    let workersMax = 0;
    const sampler = setInterval(() => {
      const sum = childPids(pid).reduce((s, c) => s + (procBytes(c, 'VmRSS') || 0), 0);
      workersMax = Math.max(workersMax, sum);
    }, 50);
    try {
      const client = await SocketClient.connect(server.url);
      await new Promise((r) => setTimeout(r, 2000)); // the warm pool is ready
      const run = await client.run('token-stampede', 'single-flight-lock-cache', { requests: 5000, servers: 16 });
      client.close();
      verdicts.push(run.verdictMs);
      phases.push(
        `run-started at ${run.runStartedMs.toFixed(0)} ms (provider and stores set up, 4 warm + 12 forked workers ready), ` +
          `first worker event at ${run.firstWorkerEventMs.toFixed(0)}, last worker exit at ${run.lastExitMs.toFixed(0)}, verdict at ${run.verdictMs.toFixed(0)}`,
      );
      refreshes.push(Number(run.finished.metrics.refreshCalls));
      okRequests.push(Number(run.finished.metrics.requestsOk));
      events.push(run.events);
      serverPeaks.push(procBytes(pid, 'VmHWM') / MB);
      workerPeaks.push(workersMax / MB);
    } finally {
      clearInterval(sampler);
      await server.stop();
    }
  }
  const figures = [
    figure('refresh calls (correct variant, 5,000 requests, 16 servers)', 'calls', refreshes, { stat: 'max', op: '==', value: 1 }),
    figure('requests ok (of 5,000)', 'requests', okRequests, { stat: 'min', op: '==', value: 5000 }),
    figure('start-run to verdict', 'ms', verdicts),
    figure('server process peak RSS (VmHWM)', 'MB', serverPeaks, { stat: 'max', op: '<=', value: 300 }),
    figure('its 16 worker processes together, peak RSS (sampled)', 'MB', workerPeaks),
    figure('events streamed to the page', 'events', events),
  ];
  return {
    figures,
    notes: [
      'A fresh `node server/dist/main.js` per repetition on a free port (found services: the local Redis and PostgreSQL), a WebSocket client in the bench process sends start-run for token-stampede single-flight-lock-cache with requests=5000, servers=16 (other parameters at their defaults: provider latency 100 ms, one wave) and waits for run-finished. ' +
        "Peak RSS is the server process's own VmHWM after the run (its whole life: start-up, warm pool, the run); its worker processes are separate processes, summed from /proc every 50 ms.",
      `Where the time went, per repetition: ${phases.join('; ')}.`,
    ],
  };
}
