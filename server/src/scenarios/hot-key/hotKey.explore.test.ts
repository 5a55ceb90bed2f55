// hot-key held to the explorer from its defaults (testing/exploredFromDefaults.ts).
import { exploredFromDefaultsTest } from '../../testing/exploredFromDefaults.js';

exploredFromDefaultsTest('hot-key', undefined, {
  variants: ['loser-skips'],
  why:
    'its jobs run side by side in each worker, and whether a loser skips at the defaults turns on their timing; when it does ' +
    'not, the search goes on to the corner of ten workers, where the run spins 354,395 decisions to its deadline (218 s)',
});
