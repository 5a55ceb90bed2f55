// optimistic-version, giving up on the first conflict.
import { mutantOf } from '../../types.js';
import optimisticVersion from '../variants/optimisticVersion.js';

export default mutantOf(optimisticVersion, {
  id: 'optimistic-version-no-retry',
  mistake: 'a write that matched no row is given up, not retried from a fresh read',
  failsAt: {},
  title: 'Optimistic, without the retry',
  summary: "B's write matches no row because A wrote first, and B gives up: its sale is refused though it fits.",
  source: import.meta.url,
  steps: {
    again: async () => null, // the mistake: the conflict is reported, and the sale dropped instead of read again
  },
});
