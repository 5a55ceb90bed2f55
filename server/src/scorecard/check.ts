// `racelab check --lock ./my-lock.mjs [--json]`: runs your lock module (the adapter
// interface of ../locks/lockAdapter.ts) through the scorecard's faults, in real worker
// processes against the real stores. Exit 0 when every fault that applies is handled, 1
// when one is not (or a run failed), 2 on bad input.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { servicesOrSay } from '../services/index.js';

export const CHECK_USAGE = 'usage: racelab check --lock <module.mjs> [--json]   (npm run check -- --lock <module.mjs>)';

/** The check command; `cwd` resolves a relative --lock path. Returns the exit code. */
export async function check(argv: string[], cwd = process.cwd()): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { lock: { type: 'string' }, json: { type: 'boolean', default: false } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${CHECK_USAGE}`);
    return 2;
  }
  if (!values.lock) {
    console.error(`--lock is required\n${CHECK_USAGE}`);
    return 2;
  }
  const path = resolve(process.env.INIT_CWD ?? cwd, values.lock);
  if (!existsSync(path)) {
    console.error(`no lock module at ${path}\n${CHECK_USAGE}`);
    return 2;
  }
  // Before the catalog loads: the server and every worker it forks load the module from here.
  const { LOCK_MODULE_ENV, LOCKS, OWN_LOCK_ID } = await importWithLock(path);
  const own = LOCKS.find((l) => l.id === OWN_LOCK_ID);
  if (!own) throw new Error(`${LOCK_MODULE_ENV} was set but no lock of your own was loaded`);

  const services = await servicesOrSay();
  if (!services) return 1;
  const { Playground } = await import('../runs/playground.js');
  const { SCORECARD_FAULTS } = await import('./faults.js');
  const { allHandled, cellHandled, runScorecard } = await import('./scorecard.js');
  const playground = await Playground.open({ ...services, poolSize: 2 });
  try {
    const card = await runScorecard(
      playground,
      [own],
      SCORECARD_FAULTS,
      () => undefined,
      (cell) => {
        if (!values.json) console.log(`  ${cellHandled(cell) ? '✓' : '✗'} ${cell.fault}: ${cell.verdict} — ${cell.note}`);
      },
    );
    const passed = allHandled(card);
    if (values.json)
      process.stdout.write(`${JSON.stringify({ lock: path, name: own.name, passed, faults: card.faults, cells: card.cells })}\n`);
    else console.log(passed ? `${own.name}: every fault that applies is handled` : `${own.name}: NOT every fault is handled`);
    return passed ? 0 : 1;
  } catch (error) {
    console.error(`racelab check: ${(error as Error).message}`);
    return 1;
  } finally {
    await playground.close();
    await services.stop();
  }
}

/** Names the lock module of your own (an absolute path) for this process and the workers it forks, then loads the locks. */
export async function importWithLock(path: string): Promise<typeof import('../locks/lockModules.js')> {
  const { LOCK_MODULE_ENV } = await import('../locks/lockEnv.js');
  process.env[LOCK_MODULE_ENV] = path;
  return import('../locks/lockModules.js');
}
