// The token provider on a real port: refresh revokes the previous token, expiry holds,
// and it counts requests (by id, last answer) as well as calls.
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderClient } from './providerClient.js';
import { startTokenProvider, type TokenProvider } from './tokenProvider.js';

let provider: TokenProvider | undefined;
let client: ProviderClient | undefined;
afterEach(async () => {
  client?.close();
  await provider?.close();
});

async function open(latencyMs: number, ttlMs: number): Promise<ProviderClient> {
  provider = await startTokenProvider({ latencyMs, ttlMs });
  client = new ProviderClient(provider.url);
  return client;
}

describe('the token provider', () => {
  it('starts with an expired token, and each refresh revokes the one before', async () => {
    const api = await open(0, 60_000);
    expect(provider!.currentToken()).toBe('tok-0 (expired)');
    expect((await api.api(String(provider!.shared!.expiredToken), 'r0')).status).toBe(401);
    const first = await api.refresh();
    expect(first.accessToken).toMatch(/^tok-1\./);
    expect(first.expiresInMs).toBe(60_000);
    expect((await api.api(first.accessToken, 'r1')).status).toBe(200);
    const second = await api.refresh();
    expect((await api.api(first.accessToken, 'r2')).status).toBe(401);
    expect((await api.api(second.accessToken, 'r3')).status).toBe(200);
    expect(provider!.counts()).toEqual({ refreshCalls: 2, requestsOk: 2, requestsFailed: 2, apiOk: 2, api401: 2 });
  });

  it('takes its latency to issue, and its tokens expire', async () => {
    const api = await open(150, 1000);
    const started = performance.now();
    const token = await api.refresh();
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect((await api.api(token.accessToken, 'a')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect(provider!.currentToken()).toMatch(/^tok-1 \(expired\)$/);
    expect((await api.api(token.accessToken, 'b')).status).toBe(401);
  });

  it('counts a request by its last answer: a retry that succeeds is a request ok', async () => {
    const api = await open(0, 60_000);
    const old = await api.refresh();
    const current = await api.refresh();
    expect((await api.api(old.accessToken, 'same')).status).toBe(401);
    expect((await api.api(current.accessToken, 'same')).status).toBe(200);
    expect(provider!.counts()).toMatchObject({ requestsOk: 1, requestsFailed: 0, apiOk: 1, api401: 1 });
  });

  it('stops listening when closed', async () => {
    const api = await open(0, 60_000);
    await provider!.close();
    await expect(api.refresh()).rejects.toThrow();
    provider = undefined;
  });
});
