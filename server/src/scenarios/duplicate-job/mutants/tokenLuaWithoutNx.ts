import { mutantOf } from '../../types.js';
import tokenLua from '../variants/tokenLua.js';

export default mutantOf(tokenLua, {
  id: 'token-lua-without-nx',
  mistake: "the SET that takes the lock has no NX: it overwrites the holder's token instead of failing",
  failsAt: {},
  title: 'Unique token, compare-and-delete, but SET without NX',
  summary: "Every container's SET succeeds, each over the one before: every container thinks it holds the lock and sends the report.",
  source: import.meta.url,
  checkpoints: ['working'],
  steps: { take: (job, key, token) => job.redis.set(key, token, 'PX', job.leaseMs) }, // the mistake: no NX, so it always succeeds
});
