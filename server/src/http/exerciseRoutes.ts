// The exercise endpoints (shared/src/exercise.ts): GET EXERCISES_PATH (whether this server
// runs edited code, why, and every exercise), GET …/<scenario>/solution, and POST
// …/<scenario>/check with the edited code as text/plain, answered line by line (NDJSON) as
// each set is graded. A refusal (not allowed, busy, too large, not text) is one 'refused'
// line with the words the page shows; nothing a client sends stops the server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EXERCISE_MAX_BYTES, EXERCISES_PATH, type ExerciseProgress } from '@racelab/shared';
import type { ExerciseService } from '../exercises/exerciseService.js';
import { clientAddress, type TrustedProxies } from './clientAddress.js';
import { refuseUpgrade } from './hosts.js';

const ROUTE = new RegExp(`^${EXERCISES_PATH}/([a-z0-9-]{1,64})/(solution|check)$`);
const TEXT = /^text\/plain(\s*;.*)?$/i;

export class ExerciseRoutes {
  constructor(
    private readonly exercises: ExerciseService,
    private readonly allowedHosts: readonly string[],
    /** Proxies whose X-Forwarded-For names the client's address (RACELAB_TRUSTED_PROXIES). */
    private readonly trustedProxies: TrustedProxies = [],
  ) {}

  /** Is this request one of ours? */
  handles(request: IncomingMessage): boolean {
    const path = (request.url ?? '').split('?')[0]!;
    return path === EXERCISES_PATH || path.startsWith(`${EXERCISES_PATH}/`);
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '').split('?')[0]!;
    if (path === EXERCISES_PATH) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return json(response, 200, this.exercises.status());
    }
    const match = ROUTE.exec(path);
    if (!match || !this.exercises.has(match[1]!)) return json(response, 404, { error: `no exercise at ${path.slice(0, 100)}` });
    const [, scenario, what] = match as unknown as [string, string, 'solution' | 'check'];
    if (what === 'solution') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return json(response, 200, this.exercises.solution(scenario));
    }
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    this.check(request, response, scenario);
  }

  private check(request: IncomingMessage, response: ServerResponse, scenario: string): void {
    const refuse = (status: number, error: string): void => {
      request.resume(); // read and dropped, so that the client gets to read the answer
      lines(response, status, [{ kind: 'refused', error }]);
    };
    // A page of another site could post here without a preflight: only the page's own origin may.
    const foreign = refuseUpgrade(request.headers, this.allowedHosts);
    if (foreign) return refuse(403, foreign);
    const client = clientAddress(request, this.trustedProxies);
    const refused = this.exercises.refusal(client);
    if (refused) return refuse(this.exercises.policy.allowed ? 409 : 403, refused);
    if (!TEXT.test(request.headers['content-type'] ?? '')) return refuse(415, 'send the edited code as text (content-type: text/plain)');
    if (Number(request.headers['content-length'] ?? 0) > EXERCISE_MAX_BYTES) return refuse(413, TOO_LARGE);
    void readBody(request).then(async (body) => {
      if (body === 'aborted') return;
      if (body === 'too large') return lines(response, 413, [{ kind: 'refused', error: TOO_LARGE }]);
      let source: string;
      try {
        source = new TextDecoder('utf-8', { fatal: true }).decode(body);
      } catch {
        return lines(response, 400, [{ kind: 'refused', error: 'the edited code is not UTF-8 text' }]);
      }
      if (source.trim() === '' || source.includes('\0'))
        return lines(response, 400, [{ kind: 'refused', error: 'the edited code is empty or not text' }]);
      response.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
      await this.exercises.check(scenario, client, source, (line) => {
        if (!response.destroyed) response.write(`${JSON.stringify(line)}\n`);
      });
      response.end();
    });
  }
}

const TOO_LARGE = `the edited code is larger than ${EXERCISE_MAX_BYTES / 1024} KB`;

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** An answer of a few NDJSON lines, all at once. */
function lines(response: ServerResponse, status: number, progress: ExerciseProgress[]): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
  response.end(progress.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

/** The body, up to the cap; 'too large' past it, 'aborted' when the client went away. */
function readBody(request: IncomingMessage): Promise<Buffer | 'too large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > EXERCISE_MAX_BYTES) resolve('too large');
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('close', () => resolve('aborted')); // after 'end', too late to matter
    request.on('error', () => resolve('aborted'));
  });
}
