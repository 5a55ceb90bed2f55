// The CLI rejects what the page rejects, with the same words: for each bad request the
// first line the CLI prints (exit status 2) is the error the socket answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cliProcess.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { connectClient, type TestClient } from '../testing/wsClient.js';

let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer(0);
  client = await connectClient(server.url);
  await client.next((m) => m.type === 'hello');
});
afterAll(async () => {
  client.socket.close();
  await server.close();
});

// Concurrent: each case is a CLI process of its own, started while the others run.
describe.concurrent('the CLI and the page', () => {
  it.each([
    ['an unknown scenario', 'nope', 'no-lock', {}],
    ['an unknown variant', 'duplicate-job', 'flushall', {}],
    ['a number out of range', 'duplicate-job', 'no-lock', { workers: '21' }],
    ['a number below range', 'duplicate-job', 'blind-del', { leaseMs: '9' }],
    ['a word for a number', 'duplicate-job', 'no-lock', { workers: 'many' }],
    ['a fraction for an integer', 'duplicate-job', 'no-lock', { workMs: '1.5' }],
    ['an unknown choice', 'duplicate-job', 'no-lock', { arrival: 'sideways' }],
    ['an unknown parameter', 'duplicate-job', 'no-lock', { keyPrefix: 'racelab:' }],
    ['a bad list', 'lost-update', 'read-modify-write', { sales: '1,2,x' }],
    ['SQL as a value', 'lost-update', 'atomic-update', { initialStock: '10; drop table products' }],
  ])('reject %s with the same words', async (what, scenario, variant, params: Record<string, string>) => {
    const args = [scenario, '--variant', variant, ...Object.entries(params).flatMap(([k, v]) => ['--param', `${k}=${v}`])];
    const fromCli = runCli(args);
    client.send({ type: 'start-run', requestId: what, scenario, variant, params });
    const fromPage = await client.next((m) => m.type === 'run-rejected' && m.requestId === what);
    const { code, stderr } = await fromCli;
    expect(code).toBe(2);
    expect(fromPage.type === 'run-rejected' && fromPage.error).toBe(stderr.split('\n')[0]);
  });
});
