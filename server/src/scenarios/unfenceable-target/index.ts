// unfenceable-target: both workers hold a lease with a fencing token, worker-1's process
// is stopped for real (SIGSTOP) past its lease, and the report goes to a target that may
// or may not compare the token. A file cannot: the stale upload wins, token and all.
import { defineScenario, intParam } from '../types.js';
import { FENCE_KEY, HOLDERS_KEY, HOLDERS_MAX_KEY, LOCK_KEY, REPORT_FENCE_KEY } from './keys.js';
import { waitForFreeLease } from './choreography.js';
import { publishedReport, uploadsKept } from './publishedReport.js';
import { createUploadFolder, type UploadFolder } from './uploadFolder.js';
import { uploadJob, type UploadJob } from './uploadJob.js';
import fencedPointer from './variants/fencedPointer.js';
import fileWithToken from './variants/fileWithToken.js';
import versionedKey from './variants/versionedKey.js';

const WORKERS = ['worker-1', 'worker-2'];

export default defineScenario<UploadJob, UploadFolder>({
  id: 'unfenceable-target',
  title: 'A target that cannot check the fence',
  summary:
    'Both workers hold fencing tokens, but the report is a plain file: nothing on the way in compares the number, so the stale upload wins.',
  source: import.meta.url,
  teachingOrder: 10,
  params: [
    { kind: 'int', name: 'leaseMs', label: 'Lease', unit: 'ms', help: 'How long the lease lives in Redis.', min: 100, max: 10_000, default: 1000 },
    { kind: 'int', name: 'pauseMs', label: 'Pause', unit: 'ms', help: "How long worker-1's process is stopped (SIGSTOP) right after it takes the lease.", min: 0, max: 15_000, default: 2500 },
    { kind: 'int', name: 'workMs', label: 'Work', unit: 'ms', help: 'How long each worker edits the report before it uploads it.', min: 0, max: 5000, default: 300 },
  ],
  metrics: [
    { name: 'maxConcurrentHolders', label: 'Max concurrent holders' },
    { name: 'staleWritesAccepted', label: 'Stale uploads taken' },
    { name: 'staleWritesRejected', label: 'Stale uploads refused' },
    { name: 'finalWriter', label: 'Writer of the report readers get' },
    { name: 'finalFence', label: 'Fence in the report readers get' },
  ],
  variants: [fileWithToken, versionedKey, fencedPointer],
  // A lease far shorter than the pause, and a longer lease with a longer pause and work.
  stabilityParams: [
    { leaseMs: 500, pauseMs: 2000, workMs: 100 },
    { leaseMs: 2000, pauseMs: 4000, workMs: 600 },
  ],

  workers: () => WORKERS,
  watchedKeys: () => [LOCK_KEY, FENCE_KEY, REPORT_FENCE_KEY, HOLDERS_KEY],
  deadlineMs: (params) =>
    15_000 + intParam(params, 'pauseMs') + intParam(params, 'leaseMs') + 2 * intParam(params, 'workMs'),

  async setup(stores, _params, run) {
    // The pointer of fenced-pointer: which uploaded file is the report, and its fence.
    await stores.sql(`create table published (
      id int primary key,
      file text,
      fence int not null,
      writer text not null)`);
    await stores.sql(`insert into published values (1, null, 0, 'nobody')`);
    // Grants in order, and every upload attempt with the target's answer.
    await stores.sql(`create table grants (
      grant_no serial primary key,
      worker text not null,
      granted_at timestamptz not null default clock_timestamp())`);
    await stores.sql(`create table upload_attempts (
      id serial primary key,
      worker text not null,
      grant_no int not null,
      fence int not null,
      accepted boolean not null,
      stale boolean not null,
      at timestamptz not null default clock_timestamp())`);
    return createUploadFolder(run.runId);
  },

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
    const attempts = await stores.sql<{ accepted: number; rejected: number }>(
      `select count(*) filter (where stale and accepted)::int as accepted,
              count(*) filter (where stale and not accepted)::int as rejected
         from upload_attempts`,
    );
    const report = await publishedReport(stores, folder.shared.dir);
    const holders = await stores.redis.get(stores.key(HOLDERS_MAX_KEY));
    return {
      maxConcurrentHolders: Number(holders ?? 0),
      staleWritesAccepted: attempts.rows[0]?.accepted ?? 0,
      staleWritesRejected: attempts.rows[0]?.rejected ?? 0,
      finalWriter: report?.writer ?? 'nobody',
      finalFence: report?.fence ?? 0,
    };
  },

  // worker-2 is always granted the lease after worker-1, with the higher fence.
  expectations: () => [
    {
      id: 'no-stale-write',
      metric: 'staleWritesAccepted',
      op: 'eq',
      value: 0,
      text: 'no upload is taken from a worker whose lease had already passed to another',
    },
    {
      id: 'last-holder-wins',
      metric: 'finalWriter',
      op: 'eq',
      value: WORKERS[1]!,
      text: 'readers get the report of worker-2, the last worker granted the lease',
    },
  ],

  async work(ctx, variant) {
    if (ctx.workerId !== ctx.workerIds[0]) await waitForFreeLease(ctx);
    await variant.run(uploadJob(ctx));
  },
});
