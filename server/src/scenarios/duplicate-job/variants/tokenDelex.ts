// token-lua with the release one command of the server: DELEX key IFEQ token (Redis 8.4),
// or DELIFEQ key token (Valkey 9), where token-lua sends its compare-and-delete script.
import { deleteIfEqual, deleteIfEqualMissing } from '../../kit/deleteIfEqual.js';
import { defineSteppedVariant } from '../../types.js';
import type { LockSteps, NightlyJob } from '../nightlyJob.js';
import tokenLua from './tokenLua.js';

export default defineSteppedVariant<NightlyJob, LockSteps>({
  id: 'token-delex',
  title: 'Unique token, DELEX IFEQ release',
  correct: true,
  summary:
    "token-lua's lock, released by DELEX key IFEQ token (Valkey: DELIFEQ): no stale holder deletes another's lock. Still no fence: a holder past its lease can still write.",
  // token-lua's figures, the same lock and choreography: not yet measured on a Redis 8.4 or a Valkey 9.
  figures: 'e-mails 1, max concurrent holders 1 (Redis ≥ 8.4 or Valkey ≥ 9; unavailable on older servers)',
  source: import.meta.url,
  // Where the server has neither command the variant is listed, refused, and never played by a script.
  unavailable: deleteIfEqualMissing,
  expectedOtherwise: tokenLua.expectedOtherwise,
  checkpoints: tokenLua.checkpoints,
  steps: {
    ...tokenLua.steps,
    // The compare and the delete are one command inside the server, as the script made them.
    release: (job, key, token) => deleteIfEqual(job.redis, key, token),
  },
  // token-lua's take, job and release in finally, with this release.
  run: (job, steps) => tokenLua.run(job, steps),
});
