// One simulated attendee of a workshop: opens the page through the proxy (which gives it the
// affinity cookie naming its server), opens the page's WebSocket as the page does (same Origin
// and Host, the cookie), and follows the chapters: for each scenario its broken variant, then
// its correct one, with some thought before each Run. A start that waits in line waits; one
// answered "busy" is counted and tried again after the time the server gives.
import type { ScenarioManifest, ServerMessage } from '@racelab/shared';
import { connectClient, isEnd, type TestClient } from '@racelab/server/testing';

/** The name of HAProxy's affinity cookie (the workshop's haproxyConfig.ts). */
const AFFINITY_COOKIE = 'RACELAB_SERVER';
/** Longest a start may wait for a slot, or a run for its end, in ms. */
const LONGEST_WAIT_MS = 600_000;

/** One run an attendee asked for, and what came of it. */
export interface Attempt {
  scenario: string;
  variant: string;
  expected: 'pass' | 'fail';
  /** The run's verdict, or 'failed' (run-failed, or refused for another reason than "busy"). */
  verdict: 'pass' | 'fail' | 'failed';
  runId: string | null;
  /** The server that ran it (its x-racelab-server name). */
  server: string;
  /** From the start sent to the run accepted, in ms ("busy" retries included). */
  waitMs: number;
  /** Whether it waited in line (run-queued), and the furthest back it stood. */
  queued: boolean;
  worstPosition: number;
  /** "busy" answers before it was taken. */
  rejected: number;
  error?: string;
}

export interface AttendeePlan {
  /** The proxy's address: http://127.0.0.1:<port>/ */
  url: string;
  /** The scenarios, in order; each is run broken then correct. */
  scenarios: string[];
  /** Ms to wait before arriving. */
  arriveAfterMs: number;
  /** Mean thinking time before each Run, in ms (each is 0.5 to 1.5 times it). */
  thinkMs: number;
  random: () => number;
}

/** Follows the chapters; resolves with every run asked for. */
export async function attend(plan: AttendeePlan): Promise<Attempt[]> {
  await sleep(plan.arriveAfterMs);
  const { server, cookie } = await openPage(plan.url);
  const socketUrl = new URL('ws', plan.url).href.replace(/^http/, 'ws');
  const client = await connectClient(socketUrl, { origin: new URL(plan.url).origin, headers: cookie ? { cookie } : {} });
  try {
    const hello = await client.next((m) => m.type === 'hello');
    const catalog = hello.type === 'hello' ? hello.catalog : [];
    const attempts: Attempt[] = [];
    for (const [scenario, variant, expected] of chapters(catalog, plan.scenarios)) {
      await sleep(plan.thinkMs * (0.5 + plan.random()));
      attempts.push(await runOne(client, { scenario, variant, expected, server, n: attempts.length }));
    }
    return attempts;
  } finally {
    client.socket.close();
  }
}

/** GET of the page: the server that answered, and the affinity cookie the proxy set. */
async function openPage(url: string): Promise<{ server: string; cookie: string | null }> {
  const response = await fetch(url);
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`the page answered ${response.status}`);
  const set = response.headers.getSetCookie().find((c) => c.startsWith(`${AFFINITY_COOKIE}=`));
  return { server: response.headers.get('x-racelab-server') ?? 'unnamed', cookie: set ? set.split(';')[0]! : null };
}

/** [scenario, variant, expected verdict at its defaults]: each scenario's first broken variant, then its first correct one. */
export function chapters(catalog: ScenarioManifest[], scenarios: string[]): Array<[string, string, 'pass' | 'fail']> {
  return scenarios.flatMap((id) => {
    const manifest = catalog.find((m) => m.id === id);
    if (!manifest) throw new Error(`no scenario '${id}' in the server's catalog`);
    return [false, true].map((correct): [string, string, 'pass' | 'fail'] => {
      const variant = manifest.variants.find((v) => v.correct === correct && !v.unavailable);
      if (!variant) throw new Error(`scenario '${id}' has no ${correct ? 'correct' : 'broken'} variant`);
      return [id, variant.id, variant.expected?.[0]?.verdict ?? (correct ? 'pass' : 'fail')];
    });
  });
}

interface Ask {
  scenario: string;
  variant: string;
  expected: 'pass' | 'fail';
  server: string;
  n: number;
}

/** Presses Run once: waits in line if it must, tries again after "busy", then follows the run to its end. */
async function runOne(client: TestClient, ask: Ask): Promise<Attempt> {
  const attempt: Attempt = { ...ask, verdict: 'failed', runId: null, waitMs: 0, queued: false, worstPosition: 0, rejected: 0 };
  const sentAt = performance.now();
  for (;;) {
    const requestId = `r${ask.n}-${attempt.rejected}`;
    client.send({ type: 'start-run', requestId, scenario: ask.scenario, variant: ask.variant });
    const answer = await answerTo(client, requestId, attempt);
    if (answer.type === 'run-accepted') {
      attempt.waitMs = performance.now() - sentAt;
      attempt.runId = answer.runId;
      break;
    }
    if (answer.type === 'run-rejected' && answer.retryAfterMs !== undefined) {
      attempt.rejected++;
      await sleep(answer.retryAfterMs);
      continue;
    }
    return { ...attempt, error: answer.type === 'run-rejected' ? answer.error : answer.type };
  }
  const end = await client.next(isEnd(attempt.runId), LONGEST_WAIT_MS);
  // The run's events are not looked at: the verdict is in its last one.
  client.inbox.length = 0;
  if (end.type !== 'run-event') return attempt;
  const last = end.event;
  if (last.type === 'run-finished') return { ...attempt, verdict: last.verdict };
  return { ...attempt, error: last.type === 'run-failed' ? last.message : last.type };
}

/** The run-accepted or run-rejected for `requestId`, noting each run-queued on the way. */
async function answerTo(client: TestClient, requestId: string, attempt: Attempt): Promise<ServerMessage> {
  for (;;) {
    const m = await client.next(
      (m) => (m.type === 'run-queued' || m.type === 'run-accepted' || m.type === 'run-rejected') && m.requestId === requestId,
      LONGEST_WAIT_MS,
    );
    if (m.type !== 'run-queued') return m;
    attempt.queued = true;
    attempt.worstPosition = Math.max(attempt.worstPosition, m.position);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
