// The exercise endpoints and a page's run of edited code, on the real stores: a server
// reachable by others refuses every one of them with the sentence the page shows, and says
// why in its status; a loopback server gives the exercises, the solution on request, a check
// streamed as NDJSON, and runs edited code from the page. Too large, not text, not UTF-8, a
// second check from the same client while one is going: each a clear refusal, and the server
// keeps serving.
import { request as httpRequest, type ClientRequest } from 'node:http';
import {
  EXERCISE_MAX_BYTES,
  EXERCISE_VARIANT_ID,
  EXERCISES_PATH,
  ExerciseProgress,
  ExercisesStatus,
  exerciseCheckPath,
  exerciseSolutionPath,
} from '@racelab/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exercisePolicy } from '../exercises/policy.js';
import type { Playground } from '../runs/playground.js';
import { BLIND_DEL, TOKEN_LUA } from '../testing/exerciseCode.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';
import { connectClient, isEnd, isEvent } from '../testing/wsClient.js';

interface Answer {
  status: number;
  text: string;
}

/** A request to the server; its answer once the whole of it has arrived. */
function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): ClientRequest & { answer: Promise<Answer> } {
  const request = httpRequest({ host: '127.0.0.1', port, method, path, headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (d: Buffer) => (text += d.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
  });
  return Object.assign(request, { answer });
}

const get = (port: number, path: string): Promise<Answer> => {
  const request = call(port, 'GET', path);
  request.end();
  return request.answer;
};

function post(port: number, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'text/plain' }): Promise<Answer> {
  const request = call(port, 'POST', exerciseCheckPath('duplicate-job'), headers);
  request.end(body);
  return request.answer;
}

const progress = (text: string): ExerciseProgress[] =>
  text
    .trim()
    .split('\n')
    .map((line) => ExerciseProgress.parse(JSON.parse(line)));

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(0);
});
afterAll(async () => {
  await playground.close();
});

describe('a server reachable by others, started without --allow-exercises', () => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp(playground, { exercises: exercisePolicy('0.0.0.0', false) });
  });
  afterAll(async () => {
    await served.close();
  });

  it('says in its status that it runs no edited code, and why; the exercises are listed all the same', async () => {
    const answer = await get(served.port, EXERCISES_PATH);
    expect(answer.status).toBe(200);
    const status = ExercisesStatus.parse(JSON.parse(answer.text));
    expect(status.allowed).toBe(false);
    expect(status.why).toContain('--allow-exercises');
    const duplicateJob = status.exercises.find((e) => e.scenario === 'duplicate-job')!;
    expect(duplicateJob.start).toEqual({ variant: 'blind-del', title: 'SET NX PX, release with DEL', code: BLIND_DEL });
    expect(duplicateJob.hints).toHaveLength(3);
    expect(duplicateJob.sets.map((s) => s.label)[0]).toBe('the defaults');
  });

  it('refuses a check with that sentence', async () => {
    const answer = await post(served.port, TOKEN_LUA);
    expect(answer.status).toBe(403);
    expect(progress(answer.text)).toEqual([{ kind: 'refused', error: exercisePolicy('0.0.0.0', false).why }]);
  });

  it('refuses a page’s run of edited code with that sentence', async () => {
    const client = await connectClient(served.url);
    client.send({ type: 'start-run', requestId: 'x', scenario: 'duplicate-job', variant: 'blind-del', exercise: { code: TOKEN_LUA } });
    const answer = await client.next((m) => m.type === 'run-rejected' || m.type === 'run-accepted');
    expect(answer).toEqual({ type: 'run-rejected', requestId: 'x', error: exercisePolicy('0.0.0.0', false).why });
    client.socket.close();
  });
});

describe('a server bound to loopback', () => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp(playground, { exercises: exercisePolicy('127.0.0.1', false) });
  });
  afterAll(async () => {
    await served.close();
  });

  it('gives the solution only when asked for, and 404 for a scenario without an exercise', async () => {
    const solution = await get(served.port, exerciseSolutionPath('duplicate-job'));
    expect(solution.status).toBe(200);
    expect(JSON.parse(solution.text)).toEqual({ variant: 'token-lua', title: 'Unique token, Lua compare-and-delete', code: TOKEN_LUA });
    expect((await get(served.port, exerciseSolutionPath('no-such-scenario'))).status).toBe(404);
  });

  it('answers code that does not compile with the compiler’s message and line, as NDJSON', async () => {
    const answer = await post(served.port, `${BLIND_DEL}\nconst broken = ;\n`);
    expect(answer.status).toBe(200);
    const [line] = progress(answer.text);
    expect(line).toMatchObject({ kind: 'not-compiled', errors: [{ line: BLIND_DEL.split('\n').length + 1 }] });
  });

  it('refuses too large, not text and not UTF-8 bodies, each in words, and keeps serving', async () => {
    const large = await post(served.port, 'x'.repeat(EXERCISE_MAX_BYTES + 1));
    expect(large.status).toBe(413);
    expect(progress(large.text)).toEqual([{ kind: 'refused', error: 'the edited code is larger than 64 KB' }]);
    const json = await post(served.port, '{}', { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    const bytes = await post(served.port, Buffer.from([0xff, 0xfe, 0x41]));
    expect(bytes.status).toBe(400);
    expect(progress(bytes.text)).toEqual([{ kind: 'refused', error: 'the edited code is not UTF-8 text' }]);
    expect((await get(served.port, EXERCISES_PATH)).status).toBe(200);
  });

  it('refuses a second check from the same client while its first is going', async () => {
    const first = call(served.port, 'POST', exerciseCheckPath('duplicate-job'), { 'content-type': 'text/plain' });
    const compiled = new Promise<void>((resolve) => first.on('response', (response) => response.once('data', () => resolve())));
    first.end(TOKEN_LUA);
    await compiled; // the first line (compiled) has come: the check is going
    const second = await post(served.port, TOKEN_LUA);
    expect(second.status).toBe(409);
    expect(progress(second.text)).toEqual([{ kind: 'refused', error: 'busy: your last check is still running; wait for its result' }]);
    first.destroy(); // its grading goes on to its end, unread; the playground's close ends its runs
  });

  it("runs a page's edited code as your-fix, to a verdict read from the stores", async () => {
    const client = await connectClient(served.url);
    const params = { arrival: 'together', leaseMs: 30_000, workMs: 120 };
    const accepted = await client.startRun(
      { scenario: 'duplicate-job', variant: 'blind-del', params, exercise: { code: TOKEN_LUA } },
      60_000,
    );
    const started = await client.next(isEvent('run-started', accepted.runId), 60_000);
    expect(started).toMatchObject({ event: { variant: EXERCISE_VARIANT_ID } });
    const end = await client.next(isEnd(accepted.runId), 90_000);
    expect(end).toMatchObject({ event: { type: 'run-finished', verdict: 'pass', metrics: { emailsSent: 1 } } });
    client.socket.close();
  }, 120_000);
});
