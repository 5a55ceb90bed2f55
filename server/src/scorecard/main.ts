// npm run scorecard: every lock library against every fault that applies, then each job queue,
// scheduler and pooler as its scenario's variants use it against the faults that apply to it, in
// real worker processes against the real stores. Writes docs/scorecard.json (both matrices, from
// which `npm run docs` writes docs/LIBRARIES.md's tables) and each run's recording under
// web/public/recordings/scorecard/, which the page replays (?replay=scorecard/<file>).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_SHIPPED_RECORDING_BYTES, type Recording } from '@racelab/shared';
import { LIBRARY_LOCKS } from '../locks/lockModules.js';
import { Playground } from '../runs/playground.js';
import { findServices } from '../services/index.js';
import { SCORECARD_FAULTS } from './faults.js';
import { runScorecard } from './scorecard.js';
import { STACK_FAULTS } from './stackFaults.js';
import { runStacks, STACK_LIBRARIES, stackRows } from './stacks.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const recordings = join(root, 'web/public/recordings/scorecard');
const started = performance.now();
const seconds = () => Math.round((performance.now() - started) / 1000);

function writeRecording(file: string, recording: Recording): void {
  const text = JSON.stringify(recording);
  if (text.length > MAX_SHIPPED_RECORDING_BYTES)
    throw new Error(`${file}: ${text.length} bytes, over the cap of ${MAX_SHIPPED_RECORDING_BYTES}`);
  writeFileSync(join(recordings, file), text);
}

const services = await findServices();
const playground = await Playground.open({ ...services, poolSize: 2 });
try {
  rmSync(recordings, { recursive: true, force: true });
  mkdirSync(recordings, { recursive: true });
  const locks = await runScorecard(playground, LIBRARY_LOCKS, SCORECARD_FAULTS, writeRecording, (cell) =>
    console.log(`${cell.lock} × ${cell.fault}: ${cell.verdict} (${seconds()} s)`),
  );
  const rows = stackRows(STACK_LIBRARIES, playground.catalog.manifests);
  const stacks = await runStacks(playground, { rows, faults: STACK_FAULTS }, writeRecording, (cell) =>
    console.log(`${cell.row} × ${cell.fault}: ${cell.verdict} (${seconds()} s)`),
  );
  writeFileSync(join(root, 'docs/scorecard.json'), `${JSON.stringify({ ...locks, stacks }, null, 2)}\n`);
  console.log(`docs/scorecard.json: ${locks.cells.length} + ${stacks.cells.length} cells in ${seconds()} s`);
} finally {
  await playground.close();
  await services.stop();
}
