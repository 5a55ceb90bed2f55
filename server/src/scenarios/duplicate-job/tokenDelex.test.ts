// token-delex on the tests' Redis, through the server as a page and the CLI reach it. Where
// that Redis has neither DELEX nor DELIFEQ (Redis before 8.4), the variant is listed with
// the reason, and a start of it, or of its near-miss, is refused with that reason by the
// socket and by the CLI alike. Where it has one, the variant is played instead.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REDIS_URL } from '../../services/index.js';
import { runCli } from '../../testing/cliProcess.js';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';
import { connectClient, type TestClient } from '../../testing/wsClient.js';
import { deleteIfEqualMissing } from '../kit/deleteIfEqual.js';
import { OVERRUN_THEN_FAIL } from './declaredSets.js';

const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const missing = await deleteIfEqualMissing(redis);
redis.disconnect();

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startTestServer(0);
  client = await connectClient(server.url);
});
afterAll(async () => {
  client.socket.close();
  await server.close();
});

describe.skipIf(missing === null)(`token-delex where the Redis lacks DELEX and DELIFEQ (${missing})`, () => {
  const refusal = `duplicate-job/token-delex is unavailable here: ${missing}`;

  it('is listed in the catalogue the page gets, marked unavailable with the reason', async () => {
    const hello = await client.next((m) => m.type === 'hello');
    const manifest = hello.type === 'hello' ? hello.catalog.find((m) => m.id === 'duplicate-job') : undefined;
    expect(manifest?.unavailable).toBeUndefined();
    expect(manifest?.variants.find((v) => v.id === 'token-delex')).toMatchObject({ correct: true, unavailable: missing });
    expect(manifest?.variants.find((v) => v.id === 'token-lua')?.unavailable).toBeUndefined();
  });

  it('a start from the page is refused with that reason, and token-lua still runs', async () => {
    client.send({ type: 'start-run', requestId: 'delex', scenario: 'duplicate-job', variant: 'token-delex', params: {} });
    expect(await client.next((m) => m.type === 'run-rejected' && m.requestId === 'delex')).toMatchObject({ error: refusal });
    expect((await play(server.playground, 'duplicate-job', 'token-lua')).verdict).toBe('pass');
  });

  it('a start from the CLI exits 2 with that reason, before anything runs', async () => {
    const { code, stderr } = await runCli(['duplicate-job', '--variant', 'token-delex']);
    expect(code).toBe(2);
    // Its last word: a line before it may say what earlier runs of other tests left and the start swept.
    expect(stderr.trim().split('\n').at(-1)).toBe(refusal);
  });

  it('its near-miss is refused with the same reason', () => {
    const started = server.playground.prepare({
      scenario: 'duplicate-job',
      variant: 'token-delex-constant-token',
      params: {},
      mutants: true,
    });
    expect(started).toEqual({ ok: false, error: refusal });
  });
});

describe.skipIf(missing !== null)('token-delex where the Redis has DELEX or DELIFEQ', () => {
  it('passes at its defaults: one e-mail, one holder at a time', async () => {
    const { metrics, verdict } = await play(server.playground, 'duplicate-job', 'token-delex');
    expect(metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
    expect(verdict).toBe('pass');
  });

  it("worker-1's late release deletes nothing once the lock has passed to worker-2", async () => {
    const { events, verdict } = await play(server.playground, 'duplicate-job', 'token-delex', OVERRUN_THEN_FAIL);
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
    expect(verdict).toBe('pass');
  });
});
