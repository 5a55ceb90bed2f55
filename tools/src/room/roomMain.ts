// `npm run room -- --attendees 200 --url http://127.0.0.1:<port>/`: a simulated workshop room
// against the address `npm run workshop` printed (room.ts). Prints the report; exit 1 when a
// run did not end with its expected verdict, a start was answered "busy", or a run left
// something in the stores.
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, intOption, readOptions } from '@racelab/server';
import { runRoom } from './room.js';
import { reportLines } from './roomReport.js';

const USAGE = `usage: npm run room -- --url <proxy address> [--attendees 200] [--arrival-s 60] [--think-s 5] [--scenarios a,b,c]
  --url        the workshop's address, as npm run workshop prints it
  --attendees  simulated pages, 1 to 2000 (default 200)
  --arrival-s  they arrive evenly spread over this many seconds (default 60)
  --think-s    mean thinking time before each Run, in s (default 5; each is 0.5 to 1.5 times it)
  --scenarios  the chapters, each run broken then correct (default duplicate-job,lost-update,fencing)
  environment: REDIS_URL and DATABASE_URL, the workshop's stores (default the local ones), checked for leftovers`;

const options = readOptions(USAGE, {
  url: { type: 'string' },
  attendees: { type: 'string', default: '200' },
  'arrival-s': { type: 'string', default: '60' },
  'think-s': { type: 'string', default: '5' },
  scenarios: { type: 'string' },
});
if (!options.url || !/^https?:\/\//.test(options.url)) {
  console.error(`--url must be the workshop's http address\n${USAGE}`);
  process.exit(2);
}
const attendees = intOption('attendees', options.attendees, 1, 2000);
const arrivalS = intOption('arrival-s', options['arrival-s'], 0, 3600);
const thinkS = intOption('think-s', options['think-s'], 0, 600);

let done = 0;
const report = await runRoom({
  url: new URL(options.url).href,
  attendees,
  arrivalS,
  thinkS,
  ...(options.scenarios ? { scenarios: options.scenarios.split(',') } : {}),
  stores: { redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL, databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL },
  onAttendee: () => {
    done++;
    if (done % 10 === 0 || done === attendees) console.error(`room: ${done} of ${attendees} attendees done`);
  },
});
for (const line of reportLines(report)) console.log(line);
const left = report.leftovers;
const clean = left.keys + left.aclUsers + left.schemas + left.roles === 0;
process.exit(report.unexpected.length === 0 && report.rejected === 0 && clean ? 0 : 1);
