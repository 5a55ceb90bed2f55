// hot-key held to the explorer from its defaults (testing/exploredFromDefaults.ts).
import { exploredFromDefaultsTest } from '../../testing/exploredFromDefaults.js';

exploredFromDefaultsTest('hot-key');
