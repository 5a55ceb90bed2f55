// A page's run of edited code, as the engine starts it, runs inside the walls: each worker as
// a uid of its own from this server's block, the run's workers sharing a gid, its fetch to a
// port that is not a store refused by the network rule, and the run judged by the stores as
// any other. What the machine cannot give is asserted to be said, never passed over.
import { createServer, type Server } from 'node:net';
import { EXERCISE_VARIANT_ID } from '@racelab/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Playground } from '../runs/playground.js';
import { TOKEN_LUA } from '../testing/exerciseCode.js';
import { eventsOf, openTestPlayground } from '../testing/testPlayground.js';
import { closeExerciseConfinement, exerciseConfinement } from './confinement.js';
import { ExerciseService } from './exerciseService.js';
import { exercisePolicy } from './policy.js';
import { serverUids } from './processLimits.js';
import { STORES } from './testing/hostile.js';

let playground: Playground;
let listener: Server;
let accepted = 0;
beforeAll(async () => {
  playground = await openTestPlayground(0);
  listener = createServer((socket) => {
    accepted++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await playground?.close();
  await closeExerciseConfinement();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

/** token-lua that first says who its process runs as and what a fetch to `port` got. */
function tellsWhoItIs(port: number): string {
  const at = 'const token = tokenOf(job);';
  if (!TOKEN_LUA.includes(at)) throw new Error(`token-lua no longer has: ${at}`);
  return TOKEN_LUA.replace(
    at,
    `${at}
    const reached = await fetch('http://127.0.0.1:${port}/').then(() => 'reached', (e) => String(e?.cause?.code ?? e));
    job.emit({ type: 'note', text: \`uid \${process.getuid?.()} gid \${process.getgid?.()} fetch \${reached}\` });`,
  );
}

it("a page's run of edited code runs each worker as a uid of its own, the stores its only reach", async () => {
  const walls = await exerciseConfinement(STORES);
  const service = new ExerciseService(playground, exercisePolicy('127.0.0.1', false));
  const port = (listener.address() as { port: number }).port;
  const edited = await service.editedRun('duplicate-job', tellsWhoItIs(port));
  if (!edited.ok) throw new Error(edited.error);
  const prepared = playground.prepare({
    scenario: 'duplicate-job',
    variant: EXERCISE_VARIANT_ID,
    params: { arrival: 'together', leaseMs: 30_000, workMs: 120 },
    ownCode: edited.ownCode,
  });
  if (!prepared.ok) throw new Error(prepared.error);
  const outcome = await prepared.run.start();
  await edited.done();
  expect(outcome).toMatchObject({ status: 'finished', verdict: 'pass', metrics: { emailsSent: 1 } });
  const told = eventsOf(prepared.run.events, 'note')
    .map((n) => /^uid (\d+) gid (\d+) fetch (\S+)$/.exec(n.text))
    .filter((m) => m !== null)
    .map(([, uid, gid, fetched]) => ({ uid: Number(uid), gid: Number(gid), fetched }));
  expect(told).toHaveLength(3);
  if (walls.description.ownUid) {
    const block = serverUids();
    expect(told.every((t) => t.uid > block.first && t.uid <= block.last)).toBe(true);
    expect(new Set(told.map((t) => t.uid)).size).toBe(3);
    expect(new Set(told.map((t) => t.gid)).size).toBe(1);
  } else {
    expect(walls.description.words).toContain('same uid as the server');
  }
  if (walls.description.network) {
    expect(told.map((t) => t.fetched)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
    expect(accepted).toBe(0);
  } else {
    expect(walls.description.words).toContain('network not confined');
  }
});
