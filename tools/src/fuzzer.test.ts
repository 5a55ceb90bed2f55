// The fuzz in `npm test`: 10,000 generated frames, malformed and valid mixed, at a running
// server. Every frame gets the answer its kind calls for, the server's heap after a full
// GC does not grow with the frames, and a normal run afterwards gives the right verdict.
// `npm run fuzz` throws 100,000 and more (fuzz.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '@racelab/server';
import { connectClient, isEnd, leftovers, startTestServer, type TestServer } from '@racelab/server/testing';
import { collectGarbage, fuzz } from './fuzzer.js';

let playground: Playground;
let url: string;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  ({ playground, url } = server);
});
afterAll(() => server.close());

const heapMb = (): number => {
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

describe('fuzz', () => {
  it('answers each of 10,000 generated frames as its kind calls for, with a flat heap, and still gives the right verdict', async () => {
    const heap: number[] = [];
    const report = await fuzz({
      url,
      frames: 10_000,
      catalog: playground.catalog.manifests,
      seed: 20_261_129,
      checkpoint: () => void heap.push(heapMb()),
    });
    expect(report.wrong).toEqual([]);
    expect(report.answered).toBe(10_000);
    expect(report.slowedDown).toBe(0);
    // Every kind was thrown.
    expect(Object.keys(report.byKind).length).toBeGreaterThanOrEqual(19);
    // The runs the fuzz started end and leave nothing behind.
    for (const runId of report.runsAccepted) await server.app.sockets.directory.get(runId)!.settled;
    for (const runId of report.runsAccepted)
      expect(await leftovers(playground.redis, playground.pg, runId)).toEqual({ keys: [], schema: false });
    // Flat: what the heap holds after a full GC at the end is what it held after the first
    // tenth, give or take 8 MB (a leak of 1 KB a frame would add ~9 MB here).
    const end = heapMb();
    expect(end - heap[0]!).toBeLessThan(8);
    console.log(
      `fuzz: ${report.frames} frames in ${report.ms} ms, heap after GC ${heap.map((h) => h.toFixed(1)).join(' → ')} → ${end.toFixed(1)} MB, ${report.runsAccepted.length} runs accepted`,
    );

    const client = await connectClient(url);
    await client.next((m) => m.type === 'hello');
    client.send({ type: 'start-run', requestId: 'after', scenario: 'duplicate-job', variant: 'no-lock' });
    const end1 = await client.next(isEnd());
    expect(end1.type === 'run-event' && end1.event.type === 'run-finished' && [end1.event.verdict, end1.event.metrics.emailsSent]).toEqual([
      'fail',
      3,
    ]);
    client.send({ type: 'start-run', requestId: 'after2', scenario: 'duplicate-job', variant: 'token-lua' });
    const end2 = await client.next(isEnd());
    expect(end2.type === 'run-event' && end2.event.type === 'run-finished' && [end2.event.verdict, end2.event.metrics.emailsSent]).toEqual([
      'pass',
      1,
    ]);
    client.socket.close();
  }, 180_000);
});
