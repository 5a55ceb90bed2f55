// npm run scorecard: every lock library against every fault that applies, in real worker
// processes against the real stores. Writes docs/scorecard.json (the matrix, from which
// `npm run docs` writes docs/LIBRARIES.md's table) and each run's recording under
// web/public/recordings/scorecard/, which the page replays (?replay=scorecard/<file>).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_SHIPPED_RECORDING_BYTES } from '@racelab/shared';
import { LIBRARY_LOCKS } from '../locks/lockModules.js';
import { Playground } from '../runs/playground.js';
import { findServices } from '../services/index.js';
import { SCORECARD_FAULTS } from './faults.js';
import { runScorecard } from './scorecard.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const recordings = join(root, 'web/public/recordings/scorecard');
const started = performance.now();

const services = await findServices();
const playground = await Playground.open({ ...services, poolSize: 2 });
try {
  rmSync(recordings, { recursive: true, force: true });
  mkdirSync(recordings, { recursive: true });
  const card = await runScorecard(
    playground,
    LIBRARY_LOCKS,
    SCORECARD_FAULTS,
    (file, recording) => {
      const text = JSON.stringify(recording);
      if (text.length > MAX_SHIPPED_RECORDING_BYTES)
        throw new Error(`${file}: ${text.length} bytes, over the cap of ${MAX_SHIPPED_RECORDING_BYTES}`);
      writeFileSync(join(recordings, file), text);
    },
    (cell) => console.log(`${cell.lock} × ${cell.fault}: ${cell.verdict}`),
  );
  writeFileSync(join(root, 'docs/scorecard.json'), `${JSON.stringify(card, null, 2)}\n`);
  console.log(`docs/scorecard.json: ${card.cells.length} cells in ${Math.round((performance.now() - started) / 1000)} s`);
} finally {
  await playground.close();
  await services.stop();
}
