// `npm run workshop -- --servers 3`: several racelab servers behind one HAProxy on one
// address of this machine, for a room of pages (workshop.ts). Prints the address once every
// server and the proxy answer; Ctrl-C (SIGINT) or SIGTERM stops the proxy and the servers.
import { intOption, readOptions } from '../commandLine.js';
import { findHaproxy, startWorkshop, type Workshop } from './workshop.js';

const USAGE = `usage: npm run workshop -- [--servers N] [--port P]
  --servers  how many racelab servers behind the proxy, 1 to 16 (default 3)
  --port     the proxy's port on 127.0.0.1 (default: a free one)
  environment: REDIS_URL and DATABASE_URL (default the local ones) are every server's stores;
               RACELAB_POOL_SIZE and the server's other settings reach each server`;

const options = readOptions(USAGE, { servers: { type: 'string', default: '3' }, port: { type: 'string' } });
const servers = intOption('servers', options.servers, 1, 16);
const port = options.port === undefined ? undefined : intOption('port', options.port, 1, 65535);
const haproxy = findHaproxy();
if (!haproxy) {
  console.error('racelab workshop: HAProxy is not on this machine: install haproxy (apt-get install haproxy)');
  process.exit(2);
}

console.log(`racelab workshop: starting ${servers} server${servers === 1 ? '' : 's'} and HAProxy`);
let workshop: Workshop;
try {
  workshop = await startWorkshop({ servers, port, haproxy, log: (line) => console.error(`racelab workshop: ${line}`) });
} catch (error) {
  console.error(`racelab workshop: ${(error as Error).message}`);
  process.exit(1);
}
const behind = workshop.servers.map((s) => `${s.name} 127.0.0.1:${s.port}`).join(', ');
console.log(`racelab workshop: ${workshop.url} (HAProxy in front of ${behind}); Ctrl-C stops them all`);

let stopping = false;
async function stop(why: string, code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`racelab workshop: ${why}: stopping HAProxy and the servers`);
  await workshop.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop('SIGINT', 0));
process.on('SIGTERM', () => void stop('SIGTERM', 0));
void workshop.ended.then((reason) => {
  if (!stopping) console.error(`racelab workshop: ${reason}; nothing serves the pages any more`);
  return stop('the proxy ended', 1);
});
