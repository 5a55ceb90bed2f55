// racelab's server: finds the stores, warms the worker pool, serves the page and its
// WebSocket on one port. Binds 127.0.0.1 unless HOST says otherwise.
import { fileURLToPath } from 'node:url';
import { createAppServer } from './http/appServer.js';
import { Playground } from './runs/playground.js';
import { describeServices, findServices } from './services/index.js';

const port = Number(process.env.PORT ?? 7070);
const host = process.env.HOST ?? '127.0.0.1';
const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

let services;
try {
  services = await findServices({ exitHooks: false });
} catch (error) {
  console.error(`racelab: ${(error as Error).message}`);
  process.exit(1);
}
for (const line of describeServices(services)) console.log(`racelab: ${line}`);

const playground = await Playground.open({ ...services, poolSize: Number(process.env.RACELAB_POOL_SIZE ?? 4) });
const { http: server, sockets } = createAppServer(playground, webRoot);
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address ? address.port : port;
  console.log(`racelab: playground on http://${host}:${shown}`);
  if (host !== '127.0.0.1' && host !== 'localhost') {
    console.log('racelab: listening beyond this machine: anyone who can reach it can start runs');
  }
});

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`racelab: ${signal}: stopping runs, workers and services`);
  server.close();
  await sockets.close('the server is stopping');
  // Give cancelled runs a moment to drop their keys and schemas.
  const deadline = Date.now() + 3000;
  while (sockets.directory.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await playground.close();
  await services!.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
