// unfenceable-target: both workers hold a lease with a fencing token, worker-1's process
// is stopped for real (SIGSTOP) past its lease, and the report goes to a target that may
// or may not compare the token. A file cannot: the stale upload wins, token and all.
import { leaseParam, pauseParam, workParam } from '../kit/leaseParams.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import {
  createFencedLedger,
  measureFencedLedger,
  recordGrantsOf,
  SESSION_WORKER,
  noStaleWrite,
  lastHolderWins,
  LAST_HOLDER_WINS,
} from '../kit/fencedLedger.js';
import { FENCE_KEY, LOCK_KEY, REFUSED_KEY, REPORT_FENCE_KEY } from './keys.js';
import { handover } from './choreography.js';
import { publishedReport, uploadsKept } from './publishedReport.js';
import { createUploadFolder, type UploadFolder } from './uploadFolder.js';
import { uploadJob, type UploadJob } from './uploadJob.js';
import fenceComparedInApp from './mutants/fenceComparedInApp.js';
import pointerMovesBack from './mutants/pointerMovesBack.js';
import fencedPointer from './variants/fencedPointer.js';
import fileWithToken from './variants/fileWithToken.js';
import versionedKey from './variants/versionedKey.js';
import { EXERCISE } from './exercise.js';
import { NEWER_HOLDER_WRITES_FIRST } from '../kit/scheduleAssumptions.js';

const WORKERS = ['worker-1', 'worker-2'];

export default defineScenario<UploadJob, UploadFolder>({
  id: 'unfenceable-target',
  title: 'A target that cannot check the fence',
  summary:
    'Both workers hold fencing tokens, but the report is a plain file: nothing on the way in compares the number, so the stale upload wins.',
  source: import.meta.url,
  teachingOrder: 10,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    leaseParam('How long the lease lives in Redis.'),
    pauseParam("How long worker-1's process is stopped (SIGSTOP) right after it takes the lease."),
    workParam('How long each worker edits the report before it uploads it.'),
  ],
  metrics: [
    {
      name: 'maxConcurrentHolders',
      label: 'Max concurrent holders',
      reported: true,
      source:
        'worker: the upload job logs each upload in PostgreSQL (a file and a Redis key keep no log of writes); at each, its sender plus the workers granted the lease after it (grants: each new holder of the lock key, as the server saw it in Redis from its own connection)',
    },
    {
      name: 'staleWritesAccepted',
      label: 'Stale uploads taken',
      source:
        "the target: 1 when the report readers get carries a lower fence than Redis's fence counter reached; for the pointer row, its trigger's log of UPDATEs that moved it after a newer grant than their sender's, if more",
    },
    {
      name: 'staleWritesRejected',
      label: 'Stale uploads refused',
      source:
        "the target: the versioned key's own count of refused uploads (Redis), plus the pointer row's log of UPDATEs that matched nothing after a newer grant than their sender's (PostgreSQL); a plain file refuses nothing",
    },
    {
      name: 'finalWriter',
      label: 'Writer of the report readers get',
      source: 'the target: the writer line of the report a reader gets (file, Redis key, or the file the pointer row names)',
    },
    { name: 'finalFence', label: 'Fence in the report readers get', source: 'the target: the fence line of the report a reader gets' },
  ],
  variants: [fileWithToken, versionedKey, fencedPointer],
  mutants: [pointerMovesBack, fenceComparedInApp],
  // A lease far shorter than the pause, and a longer lease with a longer pause and work.
  stabilityParams: [
    { leaseMs: 500, pauseMs: 2000, workMs: 100 },
    { leaseMs: 2000, pauseMs: 4000, workMs: 600 },
  ],

  workers: () => WORKERS,
  workersOnServer: "unfenceable-target's upload folder is on this server's disk",
  watchedKeys: () => [LOCK_KEY, FENCE_KEY, REPORT_FENCE_KEY],
  deadlineMs: (params) => 15_000 + intParam(params, 'pauseMs') + intParam(params, 'leaseMs') + 2 * intParam(params, 'workMs'),

  async setup(stores, _params, run) {
    // The pointer of fenced-pointer: which uploaded file is the report, and its fence.
    await stores.sql(`create table published (
      id int primary key,
      file text,
      fence int not null,
      writer text not null)`);
    await stores.sql(`insert into published values (1, null, 0, 'nobody')`);
    await createFencedLedger(stores, 'published');
    // The upload job's own log of its uploads, for the targets no trigger can watch.
    await stores.sql(`create table upload_attempts (
      id bigserial primary key,
      worker text not null default ${SESSION_WORKER},
      accepted boolean not null,
      at timestamptz not null default clock_timestamp())`);
    return createUploadFolder(run.runId);
  },

  // Every new holder of the lease, as the server sees it in Redis, is a grant: no worker records its own.
  onKeyObserved: recordGrantsOf(LOCK_KEY),

  async observe(stores, folder) {
    const report = await publishedReport(stores, folder.shared.dir);
    const lanes: Record<string, string> = {
      'report readers get': report ? `${report.writer} · fence ${report.fence} (${report.from})` : 'none yet',
    };
    const kept = await uploadsKept(folder.shared.dir);
    if (kept.length > 0) lanes['uploaded files'] = kept.join(', ');
    return { 'Upload target': lanes };
  },

  async measure(stores, _params, _run, folder) {
    const pointer = await measureFencedLedger(stores, 'published');
    const uploads = await measureFencedLedger(stores, 'published', 'upload_attempts');
    const report = await publishedReport(stores, folder.shared.dir);
    // The newest grant's fence, as the lease's own counter numbered it.
    const newest = Number((await stores.redis.get(stores.key(FENCE_KEY))) ?? 0);
    const servedStale = report !== null && report.fence < newest ? 1 : 0;
    const refused = Number((await stores.redis.get(stores.key(REFUSED_KEY))) ?? 0);
    return {
      maxConcurrentHolders: uploads.maxConcurrentHolders,
      staleWritesAccepted: Math.max(pointer.staleWritesAccepted, servedStale),
      staleWritesRejected: pointer.staleWritesRejected + refused,
      finalWriter: report?.writer ?? 'nobody',
      finalFence: report?.fence ?? 0,
    };
  },

  // worker-2 is always granted the lease after worker-1, with the higher fence.
  // Who writes last is the choreography's order; under an explored schedule, only the fence's rule holds.
  stagedExpectations: [LAST_HOLDER_WINS],
  // The fenced pointer turns away an upload older than one it took, not one older than a grant
  // whose holder has not uploaded yet: the choreography has worker-2 upload first.
  assumptions: [NEWER_HOLDER_WRITES_FIRST],
  expectations: () => [
    noStaleWrite('no upload is taken from a worker whose lease had already passed to another'),
    lastHolderWins(WORKERS[1]!, 'readers get the report of worker-2, the last worker granted the lease'),
  ],

  work: handover.work(uploadJob),
});
