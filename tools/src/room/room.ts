// A simulated workshop room against a proxy's address: `attendees` pages arriving spread over
// `arrivalS` seconds, each following the chapters (attendee.ts), while the servers behind the
// proxy are sampled from /proc where they run on this machine (processSampler.ts); then what
// the runs left in the stores, and PostgreSQL's connections meanwhile (connectionSampler.ts). The programmatic half of `npm run room` (roomMain.ts).
import { seededRandom } from '@racelab/shared';
import { attend, type Attempt } from './attendee.js';
import { ConnectionSampler } from './connectionSampler.js';
import { storesLeftovers } from './leftovers.js';
import { ProcessSampler } from './processSampler.js';
import { figures, type RoomReport } from './roomReport.js';
import { findWorkshopServers } from './workshopProcesses.js';

/** The chapters of a workshop: three scenarios, each broken then correct. */
export const DEFAULT_SCENARIOS = ['duplicate-job', 'lost-update', 'fencing'];

export interface RoomOptions {
  /** The proxy's address: http://127.0.0.1:<port>/ */
  url: string;
  attendees: number;
  /** Attendees arrive evenly spread over this many seconds. */
  arrivalS: number;
  /** Mean thinking time before each Run, in s. */
  thinkS: number;
  scenarios?: string[];
  stores: { redisUrl: string; databaseUrl: string };
  seed?: number;
  /** Each attendee's runs as they end, for a progress line. */
  onAttendee?: (attempts: Attempt[]) => void;
}

export async function runRoom(options: RoomOptions): Promise<RoomReport> {
  const random = seededRandom(options.seed ?? 20_261_205);
  const servers = findWorkshopServers(Number(new URL(options.url).port));
  const sampler = servers.length > 0 ? new ProcessSampler(servers) : null;
  const connectionSampler = new ConnectionSampler(options.stores);
  const startedAt = performance.now();
  const everyone = Array.from({ length: options.attendees }, (_, i) =>
    attend({
      url: options.url,
      scenarios: options.scenarios ?? DEFAULT_SCENARIOS,
      arriveAfterMs: (i * options.arrivalS * 1000) / options.attendees,
      thinkMs: options.thinkS * 1000,
      random,
    }).then(
      (attempts) => (options.onAttendee?.(attempts), attempts),
      (error: unknown): Attempt[] => [failedAttendee(error)],
    ),
  );
  const attempts = (await Promise.all(everyone)).flat();
  const seconds = (performance.now() - startedAt) / 1000;
  const usage = sampler?.stop() ?? null;
  const connections = await connectionSampler.stop();
  const runIds = attempts.flatMap((a) => (a.runId ? [a.runId] : []));
  const leftovers = await storesLeftovers(runIds, options.stores);
  return { ...figures(options.attendees, attempts, seconds), usage, connections, leftovers };
}

/** An attendee that could not follow the chapters at all (no page, no socket): one failed attempt that says why. */
function failedAttendee(error: unknown): Attempt {
  return {
    scenario: '(the page)',
    variant: '-',
    expected: 'pass',
    verdict: 'failed',
    runId: null,
    server: 'none',
    waitMs: 0,
    queued: false,
    worstPosition: 0,
    rejected: 0,
    error: error instanceof Error ? error.message : String(error),
  };
}
