// The page's socket on a real port against the real stores: runs stream to the verdict,
// bad input gets a clear error and the connection carries on, foreign pages are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENTS_PER_MESSAGE, type RunEvent, type ServerMessage } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { alive, connectClient, exitedWorkerPids, isEnd, leftovers } from '../testing/wsClient.js';
import { ORPHAN_GRACE_MS } from './runDirectory.js';
import { labMechanisms, MECHANISM } from '../labnet/mechanisms.js';

let playground: Playground;
let url: string;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  ({ playground, url } = server);
});
afterAll(() => server.close());

/** A page's socket; the events of a batch are kept one message each (see wsClient). */
function connect(origin?: string) {
  return connectClient(url, origin ? { origin } : {});
}

describe('socket server', () => {
  it('greets with the catalog and streams a run to its verdict', async () => {
    const client = await connect();
    const hello = await client.next((m) => m.type === 'hello');
    expect(hello.type === 'hello' && hello.catalog.map((s) => s.id)).toContain('duplicate-job');

    client.socket.send(
      JSON.stringify({ type: 'start-run', requestId: 'r1', scenario: 'duplicate-job', variant: 'no-lock', params: { workers: '4' } }),
    );
    const accepted = await client.next((m) => m.type === 'run-accepted');
    const finished = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    const event = (finished as { event: RunEvent }).event;
    expect(event.type === 'run-finished' && event.metrics.emailsSent).toBe(4);
    const runEvents = client.inbox.filter((m) => m.type === 'run-event' && accepted.type === 'run-accepted' && m.runId === accepted.runId);
    // Numbered in order with nothing missing.
    const seqs = runEvents.map((m) => (m as { event: RunEvent }).event.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    // The acceptance names the workers before they start, as the run-started does once they have.
    const started = runEvents.map((m) => (m as { event: RunEvent }).event).find((e) => e.type === 'run-started');
    expect(accepted).toMatchObject({ workers: ['worker-1', 'worker-2', 'worker-3', 'worker-4'] });
    expect(started?.type === 'run-started' && started.workers).toEqual(['worker-1', 'worker-2', 'worker-3', 'worker-4']);
    client.socket.close();
  });

  it('answers bad input with a clear error and keeps the connection', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send('{not json');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'message is not valid JSON' });
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next((m) => m.type === 'error')).toMatchObject({ error: expect.stringContaining('binary') });
    client.socket.send(
      JSON.stringify({ type: 'start-run', requestId: 'r2', scenario: 'duplicate-job', variant: 'no-lock', params: { workers: 999 } }),
    );
    expect(await client.next((m) => m.type === 'run-rejected')).toEqual({
      type: 'run-rejected',
      requestId: 'r2',
      error: "parameter 'workers' must be an integer from 1 to 20, got 999",
    });
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r3', scenario: 'nope', variant: 'x' }));
    expect(await client.next((m) => m.type === 'run-rejected')).toMatchObject({
      error: expect.stringContaining("unknown scenario 'nope'"),
    });
    // Still serving on the same connection.
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r4', scenario: 'duplicate-job', variant: 'token-lua' }));
    const finished = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    expect(finished.type === 'run-event' && finished.event.type === 'run-finished' && finished.event.verdict).toBe('pass');
    client.socket.close();
  });

  it('answers an oversized frame with an error and keeps the connection; past 1 MiB ws closes it', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send('x'.repeat(70 * 1024));
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: 'message too big: 71680 bytes; the limit is 65536',
    });
    client.socket.send(JSON.stringify({ type: 'subscribe', runId: 'abc' }));
    expect(await client.next((m) => m.type === 'run-unknown')).toEqual({ type: 'run-unknown', runId: 'abc' });
    // Beyond what ws reads at all, it closes with 1009 "message too big"; the server serves the next page.
    const closed = new Promise<number>((resolve) => client.socket.once('close', resolve));
    client.socket.send('x'.repeat(1024 * 1024 + 1));
    expect(await closed).toBe(1009);
    const again = await connect();
    await again.next((m) => m.type === 'hello');
    again.socket.close();
  });

  it('resumes a run after a reconnect, from the last event the page had, to how it really ended', async () => {
    const first = await connect();
    await first.next((m) => m.type === 'hello');
    const { runId } = await first.startRun({ scenario: 'duplicate-job', variant: 'blind-del' });
    await first.next((m) => m.type === 'run-event' && m.event.type === 'lease-acquired');
    const had = first.inbox.filter((m) => m.type === 'run-event').length;
    first.socket.terminate(); // the socket drops mid-run

    const second = await connect();
    await second.next((m) => m.type === 'hello');
    second.socket.send(JSON.stringify({ type: 'subscribe', runId, afterSeq: had })); // seqs 0..had were received
    const end = await second.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.maxConcurrentHolders).toBe(2);
    const seqs = second.inbox.filter((m) => m.type === 'run-event').map((m) => (m as { event: RunEvent }).event.seq);
    expect(seqs[0]).toBe(had + 1);
    second.socket.send(JSON.stringify({ type: 'subscribe', runId: 'ffffffffff' }));
    expect(await second.next((m) => m.type === 'run-unknown')).toEqual({ type: 'run-unknown', runId: 'ffffffffff' });
    second.socket.close();
  });

  it('sends the events that come together in one message, in order: a finished run resumed from its start comes whole', async () => {
    const first = await connect();
    await first.next((m) => m.type === 'hello');
    const { runId } = await first.startRun({ scenario: 'duplicate-job', variant: 'token-lua' });
    await first.next(isEnd(runId));
    const logged = server.app.sockets.directory.get(runId)!.events.map((e) => e.seq);
    first.socket.close();

    const second = await connect();
    const frames: ServerMessage[] = [];
    second.socket.on('message', (data) => frames.push(JSON.parse((data as Buffer).toString()) as ServerMessage));
    await second.next((m) => m.type === 'hello');
    second.socket.send(JSON.stringify({ type: 'subscribe', runId, afterSeq: -1 }));
    await second.next(isEnd(runId));
    const streamed = frames.filter((m) => m.type === 'run-event' || m.type === 'run-events');
    expect(logged.length).toBeLessThanOrEqual(MAX_EVENTS_PER_MESSAGE);
    expect(streamed.map((m) => m.type)).toEqual(['run-events']);
    expect(streamed.flatMap((m) => (m.type === 'run-events' ? m.events.map((e) => e.seq) : []))).toEqual(logged);
    second.socket.close();
  });

  it('a page that reconnects after its run failed in its absence sees the failure, from the last event it had', async () => {
    const first = await connect();
    await first.next((m) => m.type === 'hello');
    const { runId } = await first.startRun({ scenario: 'duplicate-job', variant: 'token-lua', params: { workMs: 8000 } });
    await first.next((m) => m.type === 'run-event' && m.event.type === 'work-started');
    const had = first.inbox.filter((m) => m.type === 'run-event').length; // seqs 0..had were received
    first.socket.terminate();
    // While the page is away, a worker dies: the run ends, failed.
    const run = server.app.sockets.directory.get(runId)!;
    const holder = run.events.find((e) => e.type === 'work-started')!.workerId;
    const pid = run.events.find((e) => e.type === 'worker-started' && e.workerId === holder);
    process.kill((pid as { pid: number }).pid, 'SIGKILL');
    await run.settled;

    const second = await connect();
    await second.next((m) => m.type === 'hello');
    second.socket.send(JSON.stringify({ type: 'subscribe', runId, afterSeq: had }));
    const end = await second.next((m) => m.type === 'run-event' && m.event.type === 'run-failed');
    expect(end.type === 'run-event' && end.event.type === 'run-failed' && end.event.message).toMatch(
      /was killed from outside the run \(SIGKILL\)$/,
    );
    const seqs = second.inbox.filter((m) => m.type === 'run-event').map((m) => (m as { event: RunEvent }).event.seq);
    expect([...seqs, (end as { event: RunEvent }).event.seq]).toEqual(Array.from({ length: seqs.length + 1 }, (_, i) => had + 1 + i));
    second.socket.close();
  });

  it('cancels a run whose page went away and did not come back, within 2 s, leaving nothing behind', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const { runId } = await client.startRun({
      scenario: 'duplicate-job',
      variant: 'token-lua',
      params: { leaseMs: 60000, arrival: 'late', workMs: 8000 },
    });
    await client.next((m) => m.type === 'run-event' && m.event.type === 'work-started');
    const run = server.app.sockets.directory.get(runId)!;
    let failedAt = 0;
    run.onEvent((e) => {
      if (e.type === 'run-failed') failedAt = performance.now();
    });
    // Closed like a browser tab: the server sees the socket end at once. The run waits
    // ORPHAN_GRACE_MS (1 s, two reconnect attempts) for the page to come back, then is cancelled.
    const closedAt = performance.now();
    client.socket.close();
    await run.settled;
    // (A Node timer may fire up to 1 ms early by performance.now(): it counts in whole ms.)
    expect(failedAt - closedAt).toBeGreaterThanOrEqual(ORPHAN_GRACE_MS - 1);
    expect(failedAt - closedAt).toBeLessThan(2000);
    console.log(`page closed: run-failed ${Math.round(failedAt - closedAt)} ms after`);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-failed', message: 'the page that started the run went away' });
    for (const pid of exitedWorkerPids(run.events)) expect(alive(pid)).toBe(false);
    expect(await leftovers(playground.redis, playground.pg, runId)).toEqual({ keys: [], schema: false });
    // The next page's run goes to its verdict.
    const next = await connect();
    await next.next((m) => m.type === 'hello');
    next.socket.send(JSON.stringify({ type: 'start-run', requestId: 'n', scenario: 'duplicate-job', variant: 'token-lua' }));
    const end = await next.next((m) => m.type === 'run-event' && (m.event.type === 'run-finished' || m.event.type === 'run-failed'));
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('pass');
    next.socket.close();
  });

  it('pauses, resumes and kills a real worker process from the page', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const { runId } = await client.startRun({ scenario: 'duplicate-job', variant: 'no-lock', params: { workers: 2, workMs: 1500 } });
    await client.next((m) => m.type === 'run-event' && m.event.type === 'work-started');
    const fault = (workerId: string, action: string) => client.socket.send(JSON.stringify({ type: 'fault', runId, workerId, action }));
    fault('worker-1', 'pause');
    const paused = await client.next((m) => m.type === 'run-event' && m.event.type === 'process-paused');
    const pid = server.app.sockets.directory.get(runId)!.events.find((e) => e.type === 'worker-started' && e.workerId === 'worker-1');
    const { readFileSync } = await import('node:fs');
    const state = () => readFileSync(`/proc/${(pid as { pid: number }).pid}/stat`, 'utf8').split(' ')[2];
    await expect.poll(state, { timeout: 2000 }).toBe('T'); // stopped, for real: the kernel says so
    fault('worker-1', 'pause');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'worker-1 is already paused' });
    fault('worker-1', 'resume');
    await client.next((m) => m.type === 'run-event' && m.event.type === 'process-resumed');
    fault('worker-2', 'kill');
    const end = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    // worker-2 died before its e-mail: only worker-1's was sent.
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.emailsSent).toBe(1);
    expect(paused.type === 'run-event' && paused.event.workerId).toBe('worker-1');
    fault('worker-1', 'kill');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'the run has ended' });
    client.socket.close();
  });

  it('refuses a rejoin of a lab node that is not isolated, or not there, in words for the page, and the run goes on', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const { runId } = await client.startRun({ scenario: 'redlock', variant: 'redlock', params: { pauseMs: 0 } });
    await client.next((m) => m.type === 'run-event' && m.event.type === 'run-started');
    const fault = (workerId: string, action: string) => client.socket.send(JSON.stringify({ type: 'fault', runId, workerId, action }));
    fault('node-4', 'rejoin');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'node-4 is not isolated' });
    fault('node-9', 'rejoin');
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: "no lab node 'node-9' in this run; known: node-1, node-2, node-3, node-4, node-5",
    });
    const end = await client.next((m) => m.type === 'run-event' && (m.event.type === 'run-finished' || m.event.type === 'run-failed'));
    expect(end.type === 'run-event' && end.event.type).toBe('run-finished');
    client.socket.close();
  });

  it('refuses a bad slow of a lab node with a clear error, and the run goes on; a good one is played and named with its mechanism', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const { runId } = await client.startRun({ scenario: 'redlock', variant: 'redlock', params: { pauseMs: 0 } });
    await client.next((m) => m.type === 'run-event' && m.event.type === 'run-started');
    const fault = (fields: Record<string, unknown>) => client.socket.send(JSON.stringify({ type: 'fault', runId, ...fields }));
    fault({ workerId: 'node-3', action: 'slow', latencyMs: 9000 });
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: expect.stringContaining("at 'latencyMs': latencyMs is 1 to 5000 ms"),
    });
    fault({ workerId: 'node-3', action: 'slow' });
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: expect.stringContaining("at 'latencyMs': a slow names its latencyMs, and only a slow names one"),
    });
    fault({ workerId: 'node-3', action: 'slow', latencyMs: 300, lossPercent: 80 });
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: expect.stringContaining("at 'lossPercent': lossPercent is 0 to 50"),
    });
    fault({ workerId: 'node-3', action: 'restore' });
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'node-3 is not slowed' });
    fault({ workerId: 'node-9', action: 'slow', latencyMs: 300 });
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: "no lab node 'node-9' in this run; known: node-1, node-2, node-3, node-4, node-5",
    });
    fault({ workerId: 'node-3', action: 'slow', latencyMs: 20, lossPercent: 5 });
    const slowed = await client.next((m) => m.type === 'run-event' && m.event.type === 'fault-staged' && m.event.fault === 'slowdown');
    expect(slowed.type === 'run-event' && slowed.event).toMatchObject({
      target: expect.stringMatching(/^node-3 \+20 ms, 5% lost for worker-/),
      mechanism: labMechanisms().namespaces && (await labMechanisms().netem()) ? MECHANISM.netem : MECHANISM.proxyDelay,
    });
    const end = await client.next((m) => m.type === 'run-event' && (m.event.type === 'run-finished' || m.event.type === 'run-failed'));
    expect(end.type === 'run-event' && end.event.type).toBe('run-finished');
    client.socket.close();
  });

  it('plays a run in slow motion with the same verdict', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'blind-del', speed: 0.5 }));
    const end = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    const events = client.inbox.filter((m) => m.type === 'run-event').map((m) => (m as { event: RunEvent }).event);
    const acquired = events.find((e) => e.type === 'lease-acquired');
    expect(acquired && acquired.type === 'lease-acquired' && acquired.ttlMs).toBe(2000); // 1 s at half speed
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics).toMatchObject({
      emailsSent: 3,
      maxConcurrentHolders: 2,
    });
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'x', scenario: 'duplicate-job', variant: 'no-lock', speed: 9 }));
    expect(await client.next((m) => m.type === 'error')).toMatchObject({ error: expect.stringContaining("at 'speed'") });
    client.socket.close();
  });

  it("takes a fault plan of the variant's checkpoints and refuses others", async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const start = (requestId: string, faults: unknown) =>
      client.socket.send(JSON.stringify({ type: 'start-run', requestId, scenario: 'duplicate-job', variant: 'token-lua', faults }));
    start('bad', [{ checkpoint: 'between-get-and-del', target: 'first', action: 'kill' }]);
    expect(await client.next((m) => m.type === 'run-rejected')).toMatchObject({
      error: "unknown checkpoint 'between-get-and-del' of token-lua; known: working, report-sent",
    });
    start('kill', [{ checkpoint: 'working', target: 'first', action: 'kill' }]);
    const end = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    // The holder died mid-work: no e-mail, and its lease is left to expire.
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.emailsSent).toBe(0);
    client.socket.close();
  });

  it('refuses an upgrade from a foreign origin', async () => {
    await expect(connect('http://evil.example')).rejects.toThrow(/403/);
  });

  it('lets only the page that started a run stall, kill or cancel it; a page with its key takes control back', async () => {
    const owner = await connect();
    await owner.next((m) => m.type === 'hello');
    const { runId, controlKey } = await owner.startRun({ scenario: 'duplicate-job', variant: 'token-lua', params: { workMs: 6000 } });
    expect(controlKey).toMatch(/^[a-f0-9]{32}$/);
    await owner.next((m) => m.type === 'run-event' && m.event.type === 'work-started');

    // Another page that learnt the run's id watches it, and may do nothing else.
    const other = await connect();
    await other.next((m) => m.type === 'hello');
    other.socket.send(JSON.stringify({ type: 'subscribe', runId }));
    await other.next((m) => m.type === 'run-event' && m.event.type === 'work-started');
    const refusal = `this page watches run '${runId}' but did not start it: only the page that started a run may stall, kill or cancel it`;
    for (const message of [
      { type: 'fault', runId, workerId: 'worker-1', action: 'pause' },
      { type: 'cancel-run', runId },
    ]) {
      other.socket.send(JSON.stringify(message));
      expect(await other.next((m) => m.type === 'error')).toEqual({ type: 'error', error: refusal });
    }
    // A wrong key is no key.
    other.socket.send(JSON.stringify({ type: 'subscribe', runId, controlKey: 'f'.repeat(32) }));
    other.socket.send(JSON.stringify({ type: 'cancel-run', runId }));
    expect(await other.next((m) => m.type === 'error')).toEqual({ type: 'error', error: refusal });
    const run = server.app.sockets.directory.get(runId)!;
    expect(run.events.some((e) => e.type === 'process-paused' || e.type === 'run-failed')).toBe(false);

    // The owner's page comes back on a new socket with the key: it controls its run again.
    owner.socket.terminate();
    const back = await connect();
    await back.next((m) => m.type === 'hello');
    back.socket.send(JSON.stringify({ type: 'subscribe', runId, afterSeq: run.events.length - 1, controlKey }));
    back.socket.send(JSON.stringify({ type: 'cancel-run', runId }));
    expect(await back.next(isEnd(runId))).toMatchObject({ event: { type: 'run-failed', message: 'cancelled from the page' } });
    back.socket.close();
    other.socket.close();
  });
});
