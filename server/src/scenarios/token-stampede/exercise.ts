// token-stampede as an exercise: lock-only's lock makes the refreshes take turns but keeps
// one per request; the learner shares the token and looks again under the lock.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'lock-only',
  solution: 'single-flight-lock-cache',
  hints: [
    'The lock only makes the refreshes take turns: each holder still refreshes, and every refresh revokes the token the holder before it just got. Share the token instead: whoever finds a good one uses it, and whoever takes the lock looks again first, since the holder before it may have just published one.',
    'Keep the token in Redis for less than its life (SET token:cache <token> PX <90% of its life>), read it with GET before going for the lock, and GET it again once SET token:lock <me> NX PX <lease> has answered OK: refresh only when it is still missing.',
    'In getToken, read service.redis.get(service.key(CACHE_KEY)) first; when it is empty, await service.pauseBeforeLock() (where server-2 stalls in the third set), take the lock, read the cache again, and only then call service.refresh() and store fresh.value for fresh.useForMs before releaseIfMine. One shared promise per process keeps its own requests from each going for the lock.',
  ],
  setReasons: [
    '120 requests over four servers find the token expired at once: one refresh call serves them all, and every request gets a 200',
    'two waves 1.5 s apart: the second wave must find the shared token in Redis and refresh nothing',
    "server-2 found no token, then is stopped 1 s before the lock while server-1 refreshes, publishes and releases: under the lock server-2 must look again and use server-1's token",
  ],
};
