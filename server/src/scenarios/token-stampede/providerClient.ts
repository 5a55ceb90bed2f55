// A server process's HTTP client for the token provider and its API. One keep-alive
// agent per process with a bounded socket pool, like a real service's HTTP client: 5000
// requests over 16 processes reuse at most 16 × MAX_SOCKETS connections.
import { Agent, request } from 'node:http';

/** Connections one server process keeps to the provider at most. */
export const MAX_SOCKETS = 32;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  durationMs: number;
}

export class ProviderClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });

  constructor(private readonly baseUrl: string) {}

  /** POST /token: the provider issues a new token and revokes the one before. */
  async refresh(): Promise<Answer & { accessToken: string; expiresInMs: number }> {
    const answer = await this.call('POST', '/token', {});
    const { accessToken, expiresInMs } = answer.body;
    if (answer.status !== 200 || typeof accessToken !== 'string' || typeof expiresInMs !== 'number') {
      throw new Error(`the provider refused a refresh: ${answer.status}`);
    }
    return { ...answer, accessToken, expiresInMs };
  }

  /** GET /api with a bearer token; the request id lets the provider count requests, not calls. */
  api(token: string, requestId: string): Promise<Answer> {
    return this.call('GET', '/api', { authorization: `Bearer ${token}`, 'x-request-id': requestId });
  }

  close(): void {
    this.agent.destroy();
  }

  private call(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
    const startedMs = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(`${this.baseUrl}${path}`, { method, headers, agent: this.agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            const body = JSON.parse(text) as Record<string, unknown>;
            resolve({ status: res.statusCode ?? 0, body, durationMs: Math.round(performance.now() - startedMs) });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }
}
