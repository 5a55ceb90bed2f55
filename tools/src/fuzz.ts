// Fuzzes a running server: throws generated frames, malformed and valid mixed, at its
// WebSocket and checks that each gets the answer its kind calls for, that the server's
// heap after a full GC stays flat, and that a normal run afterwards gives the right verdict.
//   npm run fuzz -- [--frames 100000] [--seed 1] [--connections 40]
// Exit 1 when any check fails.
import type { AddressInfo } from 'node:net';
import { intOption, readOptions, createAppServer, Playground, findServices } from '@racelab/server';
import { connectClient, isEnd, leftovers } from '@racelab/server/testing';
import { collectGarbage, fuzz } from './fuzzer.js';

const values = readOptions('usage: npm run fuzz -- [--frames 100000] [--seed 1] [--connections 40]', {
  frames: { type: 'string', default: '100000' },
  seed: { type: 'string', default: '1' },
  connections: { type: 'string', default: '40' },
});
const frames = intOption('frames', values.frames, 1, 10_000_000);
const seed = intOption('seed', values.seed, 0, 2 ** 31 - 1);
const connections = intOption('connections', values.connections, 1, 500);

const heapMb = (): number => {
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const rssMb = (): number => process.memoryUsage().rss / 2 ** 20;

const services = await findServices();
const playground = await Playground.open({ ...services, poolSize: 2 });
const app = createAppServer(playground, '/nonexistent');
await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
const url = `ws://127.0.0.1:${(app.http.address() as AddressInfo).port}/ws`;
const failures: string[] = [];
try {
  const heap: number[] = [];
  const rss: number[] = [];
  console.log(`fuzz: ${frames} frames at ${url}, seed ${seed}, ${connections} connections`);
  const report = await fuzz({
    url,
    frames,
    catalog: playground.catalog.manifests,
    seed,
    connections,
    checkpoint: (answered) => {
      heap.push(heapMb());
      rss.push(rssMb());
      console.log(`  ${answered} answered: heap after GC ${heap.at(-1)!.toFixed(1)} MB, rss ${rss.at(-1)!.toFixed(0)} MB`);
    },
  });
  for (const runId of report.runsAccepted) await app.sockets.directory.get(runId)?.settled;
  let leaked = 0;
  for (const runId of report.runsAccepted) {
    const left = await leftovers(playground.redis, playground.pg, runId);
    if (left.keys.length > 0 || left.schema) leaked++;
  }
  const end = heapMb();
  console.log(
    `frames: ${report.frames}, answered: ${report.answered}, as expected: ${report.answered - report.wrongCount}, "slow down": ${report.slowedDown}`,
  );
  console.log(
    `kinds: ${Object.entries(report.byKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  console.log(`runs accepted: ${report.runsAccepted.length}, left keys or a schema behind: ${leaked}`);
  console.log(
    `heap after GC: first tenth ${heap[0]!.toFixed(1)} MB, end ${end.toFixed(1)} MB (${(end - heap[0]!).toFixed(1)} MB); rss ${rss[0]!.toFixed(0)} → ${rss.at(-1)!.toFixed(0)} MB`,
  );
  console.log(`took ${(report.ms / 1000).toFixed(1)} s (${Math.round(report.frames / (report.ms / 1000))} frames a second)`);
  if (report.answered !== frames) failures.push(`${frames - report.answered} frames unanswered`);
  if (report.wrongCount > 0) failures.push(`${report.wrongCount} wrong answers, e.g. ${JSON.stringify(report.wrong.slice(0, 3))}`);
  if (leaked > 0) failures.push(`${leaked} runs left keys or a schema behind`);
  if (end - heap[0]! > 16) failures.push(`the heap grew by ${(end - heap[0]!).toFixed(1)} MB`);

  const client = await connectClient(url);
  await client.next((m) => m.type === 'hello');
  for (const [variant, verdict, emails] of [
    ['no-lock', 'fail', 3],
    ['token-lua', 'pass', 1],
  ] as const) {
    client.send({ type: 'start-run', requestId: variant, scenario: 'duplicate-job', variant });
    const endMessage = await client.next(isEnd(), 60_000);
    const got =
      endMessage.type === 'run-event' && endMessage.event.type === 'run-finished'
        ? `${endMessage.event.verdict} ${endMessage.event.metrics.emailsSent}`
        : JSON.stringify(endMessage);
    console.log(`after the fuzz: duplicate-job ${variant}: ${got} (expected ${verdict} ${emails})`);
    if (got !== `${verdict} ${emails}`) failures.push(`duplicate-job ${variant} gave ${got} after the fuzz`);
  }
  client.socket.close();
} finally {
  await app.sockets.close('fuzz over');
  app.http.close();
  await playground.close();
  await services.stop();
}
for (const failure of failures) console.error(`FAIL: ${failure}`);
console.log(failures.length === 0 ? 'fuzz: OK' : 'fuzz: FAILED');
process.exitCode = failures.length === 0 ? 0 : 1;
